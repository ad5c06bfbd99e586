import CArgon2
import Crypto
import Foundation

/// Derives the key-encryption key (KEK) from a passphrase with Argon2id (libargon2).
///
/// This is the only file that calls into libargon2; no C type leaves it.
enum PassphraseKey {
    /// Length of the random salt stored beside the parameters.
    static let saltLength = 16
    /// Length of the derived key: an AES-256 key.
    static let keyLength = 32

    /// A fresh random salt.
    static func randomSalt() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Runs Argon2id over `passphrase` and `salt` with `parameters` and returns an AES-256 key.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when libargon2 fails (for example out of memory).
    static func derive(
        passphrase: String,
        salt: Data,
        parameters: Argon2Parameters
    ) throws(StoreError) -> SymmetricKey {
        try parameters.validate()
        var password = Array(passphrase.utf8)
        var output = [UInt8](repeating: 0, count: keyLength)
        // Wipe the copies we own; the caller's String cannot be wiped, which is documented.
        defer {
            wipe(&password)
            wipe(&output)
        }
        let status = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                output.withUnsafeMutableBytes { outputBytes in
                    argon2id_hash_raw(
                        parameters.iterations,
                        parameters.memoryKiB,
                        parameters.parallelism,
                        passwordBytes.baseAddress,
                        passwordBytes.count,
                        saltBytes.baseAddress,
                        saltBytes.count,
                        outputBytes.baseAddress,
                        outputBytes.count
                    )
                }
            }
        }
        guard status == Int32(ARGON2_OK.rawValue) else {
            let reason = String(cString: argon2_error_message(status))
            throw .configuration(
                "Argon2id failed (\(reason)); check that the machine has \(parameters.memoryKiB / 1024) MiB of free memory."
            )
        }
        return SymmetricKey(data: output)
    }

    /// Overwrites a buffer we own with zeros before it is freed.
    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            // Best effort: Swift has no guaranteed wipe, but this clears the copy in the common case.
            memset(base, 0, buffer.count)
        }
        withExtendedLifetime(bytes) {}
    }
}
