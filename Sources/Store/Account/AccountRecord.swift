import Foundation

/// The single `account` row, as the store reads it before unlocking.
struct AccountRecord: Sendable {
    var id: UUID
    var username: String
    var salt: Data
    var parameters: Argon2Parameters
    var wrappedDataKey: Data
    var failedAttempts: Int
    var lockedUntil: Date?
    /// Whether two-factor login is on; bound into the wrapping of the data key.
    var twoFactor: Bool
    /// The sealed login secret and verification state (nil before the first unlock after the
    /// upgrade of a database whose secret was still the `smsgw-login` OTP entry).
    var twoFactorSecret: Data?
    var twoFactorState: Data?
    /// Whether the PDU fingerprints are keyed (false until the first unlock of an older database).
    var fingerprintsKeyed: Bool
    /// How many times the data key was replaced, starting at 1.
    var keyGeneration: Int64

    static func fetch(_ db: StoreDatabase) throws -> AccountRecord? {
        guard let row = try db.row(sql: "SELECT * FROM account LIMIT 1") else { return nil }
        let memory: Int64 = row["kdf_memory_kib"]
        let iterations: Int64 = row["kdf_iterations"]
        let parallelism: Int64 = row["kdf_parallelism"]
        guard let m = UInt32(exactly: memory), let t = UInt32(exactly: iterations),
            let p = UInt32(exactly: parallelism)
        else {
            throw StoreError.corrupted("The account's Argon2 parameters are out of range; restore the database from a backup.")
        }
        return AccountRecord(
            id: try UUID.fromStore(row["id"]),
            username: row["username"],
            salt: row["kdf_salt"],
            parameters: Argon2Parameters(memoryKiB: m, iterations: t, parallelism: p),
            wrappedDataKey: row["wrapped_data_key"],
            failedAttempts: row["failed_attempts"],
            lockedUntil: (row["locked_until"] as Double?).map(Date.init(timeIntervalSince1970:)),
            twoFactor: row["two_factor"],
            twoFactorSecret: row["two_factor_secret"],
            twoFactorState: row["two_factor_state"],
            fingerprintsKeyed: row["fingerprints_keyed"],
            keyGeneration: row["key_generation"]
        )
    }

    /// Fetches the account or throws ``StoreError/notFound(_:)`` (``StoreError/Missing/account``).
    static func require(_ db: StoreDatabase) throws -> AccountRecord {
        guard let record = try fetch(db) else { throw StoreError.noAccount }
        return record
    }
}

extension StoreError {
    static let noAccount = StoreError.notFound(.account)
}

/// Validation shared by account creation, renaming and passphrase changes.
enum AccountRules {
    static let minimumPassphraseLength = 8
    static let maximumPassphraseBytes = 1024

    static func username(_ raw: String) throws(StoreError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...64).contains(name.count) else {
            throw .invalidInput("The username must be 1 to 64 characters; choose another.")
        }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalidInput("The username contains control characters; choose another.")
        }
        return name
    }

    static func passphrase(_ passphrase: String) throws(StoreError) {
        guard passphrase.count >= minimumPassphraseLength else {
            throw .invalidInput("The passphrase is too short; use at least \(minimumPassphraseLength) characters, ideally several words.")
        }
        guard passphrase.utf8.count <= maximumPassphraseBytes else {
            throw .invalidInput("The passphrase is longer than \(maximumPassphraseBytes) bytes; use a shorter one.")
        }
    }
}
