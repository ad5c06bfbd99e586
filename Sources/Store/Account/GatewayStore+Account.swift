public import Foundation
import Logging

extension GatewayStore {
    /// Creates the database's only account and returns it unlocked.
    ///
    /// A random 256-bit data key is generated and wrapped under a key derived from the
    /// passphrase with Argon2id and a random 16-byte salt.
    ///
    /// - Parameters:
    ///   - username: 1 to 64 characters, trimmed.
    ///   - passphrase: At least 8 characters.
    ///   - parameters: The Argon2id cost; at least ``Argon2Parameters/minimum``.
    /// - Throws: ``StoreError/alreadyExists(_:)`` if an account exists, ``StoreError/invalidInput(_:)``.
    public func createAccount(
        username: String,
        passphrase: String,
        parameters: Argon2Parameters = .default
    ) throws -> UnlockedStore {
        let username = try AccountRules.username(username)
        try AccountRules.passphrase(passphrase)
        try parameters.validate()
        if try accountExists { throw StoreError.accountExists }

        let accountID = UUID()
        let salt = PassphraseKey.randomSalt()
        let kek = try KeyEncryptionKey.derive(passphrase: passphrase, salt: salt, parameters: parameters)
        let dataKey = DataKey.random()
        let wrapped = try dataKey.wrapped(by: kek, for: .dataKey(account: accountID))
        let now = Date().timeIntervalSince1970

        try StoreError.wrapping {
            try writeTransaction { db in
                // Checked again inside the transaction: another process may have won the race.
                if try AccountRecord.fetch(db) != nil { throw StoreError.accountExists }
                try db.execute(
                    sql: """
                        INSERT INTO account (id, username, kdf_salt, kdf_memory_kib, kdf_iterations,
                            kdf_parallelism, wrapped_data_key, created_at, updated_at, fingerprints_keyed)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                        """,
                    arguments: [
                        accountID.storeString, username, salt, Int64(parameters.memoryKiB),
                        Int64(parameters.iterations), Int64(parameters.parallelism), wrapped, now, now,
                    ]
                )
            }
        }
        logger.info("Created the gateway account.", metadata: [StoreLog.kdf: "\(parameters)"])
        return UnlockedStore(
            gateway: self, accountID: accountID, username: username,
            keys: AccountKeys(dataKey: dataKey, kek: kek, generation: 1)
        )
    }

    /// Whether two-factor login is on, readable before unlocking (false when there is no account).
    ///
    /// The setting is in the clear so the code can be asked before the unlock lock is taken; it
    /// is bound into the wrapping of the data key, so a changed value makes the unlock fail.
    public var twoFactorEnabled: Bool {
        get throws {
            try StoreError.wrapping {
                try readTransaction { db in try db.value(Bool.self, sql: "SELECT two_factor FROM account LIMIT 1") ?? false }
            }
        }
    }

    /// The time until which the account refuses unlock attempts, or nil when it is not locked.
    public func lockedUntil(now: Date = Date()) throws -> Date? {
        try StoreError.wrapping {
            try readTransaction { db in
                let record = try AccountRecord.require(db)
                return record.lockedUntil.flatMap { $0 > now ? $0 : nil }
            }
        }
    }
}

extension StoreError {
    static let accountExists = StoreError.alreadyExists(
        "An account already exists in this data directory; unlock it, or choose another data directory."
    )
}
