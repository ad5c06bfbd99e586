import Crypto
import Foundation

/// The random 256-bit key that encrypts every secret column with AES-GCM.
///
/// It exists in memory only while the account is unlocked; on disk it is wrapped by the
/// passphrase-derived key. Its description and mirror never show the key bytes.
///
/// `@unchecked Sendable`: swift-crypto 3.12 does not mark `SymmetricKey` Sendable, but it is an
/// immutable value (its byte storage is written once at init and only read afterwards).
struct DataKey: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Internal only so tests can check the key never reaches the files; never log it.
    let key: SymmetricKey
    /// The HMAC key of PDU fingerprints, derived with its own label so the data key itself
    /// never keys a hash whose output is stored in the clear.
    private let fingerprintKey: SymmetricKey

    /// The HKDF label of ``fingerprintKey``.
    static let fingerprintLabel = "smsgw/v1/pdu-fingerprint"

    init(_ key: SymmetricKey) {
        self.key = key
        fingerprintKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Data(Self.fingerprintLabel.utf8), outputByteCount: 32
        )
    }

    /// A fresh random data key.
    static func random() -> DataKey { DataKey(SymmetricKey(size: .bits256)) }

    /// Seals `plaintext` for `context`: nonce ‖ ciphertext ‖ tag.
    func seal(_ plaintext: Data, for context: SecretContext) throws(StoreError) -> Data {
        try Self.seal(plaintext, key: key, context: context)
    }

    /// Opens a blob sealed for `context`; a blob from another row, column or key fails.
    func open(_ sealed: Data, for context: SecretContext) throws(StoreError) -> Data {
        try Self.open(sealed, key: key, context: context)
    }

    /// Seals a UTF-8 string.
    func seal(_ text: String, for context: SecretContext) throws(StoreError) -> Data {
        try seal(Data(text.utf8), for: context)
    }

    /// Opens a blob holding a UTF-8 string.
    func openString(_ sealed: Data, for context: SecretContext) throws(StoreError) -> String {
        let data = try open(sealed, for: context)
        guard let text = String(data: data, encoding: .utf8) else {
            throw .corrupted("A stored text is not valid UTF-8; restore the database from a backup.")
        }
        return text
    }

    /// The keyed form of a received PDU's fingerprint, as stored: HMAC-SHA256 under the
    /// fingerprint key, 64 lowercase hex digits.
    ///
    /// The modem's fingerprint is a hash of the raw SMS; stored as it is, a plain text (a bank
    /// code, a template) could be confirmed offline from a copy of the database by hashing guesses.
    func fingerprint(_ raw: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(raw.utf8), using: fingerprintKey)
            .map { String(format: "%02x", $0) }.joined()
    }

    /// Wraps this data key under a key-encryption key.
    func wrapped(by kek: KeyEncryptionKey, for context: SecretContext) throws(StoreError) -> Data {
        let raw = key.withUnsafeBytes { Data($0) }
        return try Self.seal(raw, key: kek.key, context: context)
    }

    /// Unwraps a data key; `nil` when the key-encryption key or the context is wrong (a wrong
    /// passphrase, or a two-factor setting that is not the one the key was wrapped with).
    static func unwrap(_ wrapped: Data, with kek: KeyEncryptionKey, for context: SecretContext) -> DataKey? {
        guard let raw = try? open(wrapped, key: kek.key, context: context), raw.count == 32 else { return nil }
        return DataKey(SymmetricKey(data: raw))
    }

    var description: String { "DataKey(<redacted>)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    private static func seal(_ plaintext: Data, key: SymmetricKey, context: SecretContext) throws(StoreError) -> Data {
        do {
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: context.bytes)
            guard let combined = box.combined else {
                throw StoreError.configuration("AES-GCM produced no combined form; report this as a bug.")
            }
            return combined
        } catch let error as StoreError {
            throw error
        } catch {
            throw .configuration("AES-GCM encryption failed; report this as a bug.")
        }
    }

    private static func open(_ sealed: Data, key: SymmetricKey, context: SecretContext) throws(StoreError) -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: key, authenticating: context.bytes)
        } catch {
            throw .corrupted(
                "A stored secret failed its integrity check (\(context.purpose)); the database was altered, so restore it from a backup."
            )
        }
    }
}

extension SecretContext {
    /// The last component of the label ("session", "text"), safe to show in errors.
    var purpose: String { label.split(separator: "/").last.map(String.init) ?? label }
}
