import Crypto
public import Foundation

/// An operator's password verifier: Argon2id over the password with its own salt and cost,
/// compared in constant time. Stored sealed under the data key (``OperatorRecord/password``), so a
/// copy of the database alone cannot be used to guess passwords offline.
///
/// Form: version 1 (one byte), memory in KiB, passes and lanes (three big-endian 32-bit numbers),
/// the 16-byte salt, the 32-byte Argon2id output.
public enum OperatorPassword {
    /// The cost of a console login: OWASP's m=19 MiB, t=2, p=1, a recommended setting of the
    /// same strength as 64 MiB and 3 passes that keeps the daemon's peak memory low per login.
    public static let parameters = Argon2Parameters.minimum

    private static let version: UInt8 = 1
    private static let length = 1 + 12 + PassphraseKey.saltLength + PassphraseKey.keyLength

    /// A verifier for `password` with a fresh random salt.
    public static func verifier(for password: String, parameters: Argon2Parameters = parameters) throws -> Data {
        let salt = PassphraseKey.randomSalt()
        let output = try PassphraseKey.derive(passphrase: password, salt: salt, parameters: parameters)
        var data = Data([version])
        for value in [parameters.memoryKiB, parameters.iterations, parameters.parallelism] {
            withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
        }
        data.append(salt)
        output.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    /// Whether `password` matches `verifier`, compared in constant time.
    /// - Throws: ``StoreError/corrupted(_:)`` for a verifier not in the form above.
    public static func matches(_ password: String, verifier: Data) throws -> Bool {
        let bytes = [UInt8](verifier)
        guard bytes.count == length, bytes[0] == version else {
            throw StoreError.corrupted("An operator's password verifier is unreadable; set a new password for them.")
        }
        func number(at offset: Int) -> UInt32 { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let parameters = Argon2Parameters(memoryKiB: number(at: 1), iterations: number(at: 5), parallelism: number(at: 9))
        let salt = Data(bytes[13..<13 + PassphraseKey.saltLength])
        let expected = bytes[(13 + PassphraseKey.saltLength)...]
        let output = try PassphraseKey.derive(passphrase: password, salt: salt, parameters: parameters)
        return output.withUnsafeBytes { derived in
            zip(derived, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }

    /// Spends the time of one check without a verifier, so that a login for a name that does not
    /// exist takes as long as one for a name that does.
    public static func spendCheck(_ password: String) {
        _ = try? PassphraseKey.derive(passphrase: password, salt: Data(count: PassphraseKey.saltLength), parameters: parameters)
    }
}
