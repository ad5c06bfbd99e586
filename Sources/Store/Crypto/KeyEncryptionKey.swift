import Crypto
import Foundation

/// The key derived from the passphrase (Argon2id over the stored salt) that wraps the data key.
///
/// An ``UnlockedStore`` keeps it so that turning two-factor login on or off, which changes how
/// the data key is wrapped, needs no second passphrase prompt. It opens nothing but the wrapped
/// data key, which the same process holds anyway. Its description and mirror never show the key.
///
/// `@unchecked Sendable`: as for ``DataKey``, `SymmetricKey` is an immutable value.
struct KeyEncryptionKey: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let key: SymmetricKey
    /// The salt it was derived with: when the account's salt differs, the passphrase was changed
    /// (by another process) and this key no longer matches the stored wrapping.
    let salt: Data

    /// Runs Argon2id; see ``PassphraseKey/derive(passphrase:salt:parameters:)``.
    static func derive(passphrase: String, salt: Data, parameters: Argon2Parameters) throws(StoreError) -> KeyEncryptionKey {
        KeyEncryptionKey(key: try PassphraseKey.derive(passphrase: passphrase, salt: salt, parameters: parameters), salt: salt)
    }

    var description: String { "KeyEncryptionKey(<redacted>)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
