public import Foundation
import GRDB
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
        let kek = try PassphraseKey.derive(passphrase: passphrase, salt: salt, parameters: parameters)
        let dataKey = DataKey.random()
        let wrapped = try dataKey.wrapped(by: kek, for: .dataKey(account: accountID))
        let now = Date().timeIntervalSince1970

        try StoreError.wrapping {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    // Checked again inside the transaction: another process may have won the race.
                    if try AccountRecord.fetch(db) != nil { throw StoreError.accountExists }
                    try db.execute(
                        sql: """
                            INSERT INTO account (id, username, kdf_salt, kdf_memory_kib, kdf_iterations,
                                kdf_parallelism, wrapped_data_key, created_at, updated_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            accountID.storeString, username, salt, Int64(parameters.memoryKiB),
                            Int64(parameters.iterations), Int64(parameters.parallelism), wrapped, now, now,
                        ]
                    )
                    return .commit
                }
            }
        }
        logger.info("Created the gateway account.", metadata: ["smsgw.account.kdf": "\(parameters)"])
        return UnlockedStore(gateway: self, accountID: accountID, username: username, dataKey: dataKey)
    }

    /// Unlocks the account with its passphrase.
    ///
    /// The lockout is checked before Argon2 runs. The attempt is counted as a failure before
    /// the (slow) key derivation and cleared on success, so parallel guesses from several
    /// processes, or a process killed mid-derivation, still count.
    ///
    /// - Parameters:
    ///   - passphrase: The account passphrase.
    ///   - now: The current time (a parameter so tests can move the clock).
    ///   - secondFactor: Called once the passphrase is right, with the unlocked store, to check a
    ///     second factor (a TOTP code); returning false counts as a failed attempt, exactly like a
    ///     wrong passphrase, so the lockout covers both.
    /// - Throws: ``StoreError/lockedOut(until:)`` while locked (and on the failure that locks),
    ///   ``StoreError/authenticationFailed(remainingAttempts:)`` for a wrong passphrase or second
    ///   factor, ``StoreError/notFound(_:)`` when no account exists.
    public func unlock(
        passphrase: String, now: Date = Date(), secondFactor: ((UnlockedStore) throws -> Bool)? = nil
    ) throws -> UnlockedStore {
        let (record, failures, lockedUntil) = try reserveAttempt(now: now)
        let kek = try PassphraseKey.derive(passphrase: passphrase, salt: record.salt, parameters: record.parameters)
        guard let dataKey = DataKey.unwrap(record.wrappedDataKey, with: kek, for: .dataKey(account: record.id)) else {
            logger.warning(
                "Wrong passphrase for the gateway account.",
                metadata: [
                    LogKey.failures: "\(failures)",
                    LogKey.lockedUntil: "\(lockedUntil.map { ISO8601DateFormatter().string(from: $0) } ?? "-")",
                ]
            )
            if let lockedUntil { throw StoreError.lockedOut(until: lockedUntil) }
            throw StoreError.authenticationFailed(
                remainingAttempts: lockoutPolicy.remainingAttempts(afterFailures: failures)
            )
        }
        let unlocked = UnlockedStore(gateway: self, accountID: record.id, username: record.username, dataKey: dataKey)
        if let secondFactor, try !secondFactor(unlocked) {
            logger.warning("Wrong second factor for the gateway account.", metadata: [LogKey.failures: "\(failures)"])
            if let lockedUntil { throw StoreError.lockedOut(until: lockedUntil) }
            throw StoreError.authenticationFailed(
                remainingAttempts: lockoutPolicy.remainingAttempts(afterFailures: failures)
            )
        }
        try resetFailures(account: record.id)
        return unlocked
    }

    /// The time until which the account refuses unlock attempts, or nil when it is not locked.
    public func lockedUntil(now: Date = Date()) throws -> Date? {
        try StoreError.wrapping {
            try pool.read { db in
                let record = try AccountRecord.require(db)
                return record.lockedUntil.flatMap { $0 > now ? $0 : nil }
            }
        }
    }

    /// Checks the lock and counts this attempt as a failure, in one IMMEDIATE transaction.
    ///
    /// - Returns: The account row, the failure count including this attempt, and the lock
    ///   that applies if this attempt fails.
    private func reserveAttempt(now: Date) throws -> (AccountRecord, Int, Date?) {
        try StoreError.wrapping {
            try pool.writeWithoutTransaction { db in
                var result: (AccountRecord, Int, Date?)?
                try db.inTransaction(.immediate) {
                    let record = try AccountRecord.require(db)
                    if let until = record.lockedUntil, until > now {
                        // Nothing is written: a locked account cannot extend its own lock by guessing.
                        throw StoreError.lockedOut(until: until)
                    }
                    try record.parameters.validate()
                    let failures = record.failedAttempts + 1
                    let lockedUntil = lockoutPolicy.lockDuration(afterFailures: failures).map { now + $0 }
                    try db.execute(
                        sql: "UPDATE account SET failed_attempts = ?, locked_until = ? WHERE id = ?",
                        arguments: [failures, lockedUntil?.timeIntervalSince1970, record.id.storeString]
                    )
                    result = (record, failures, lockedUntil)
                    return .commit
                }
                return result!
            }
        }
    }

    private func resetFailures(account: UUID) throws {
        try StoreError.wrapping {
            try pool.write { db in
                try db.execute(
                    sql: "UPDATE account SET failed_attempts = 0, locked_until = NULL WHERE id = ?",
                    arguments: [account.storeString]
                )
            }
        }
    }
}

extension StoreError {
    static let accountExists = StoreError.alreadyExists(
        "An account already exists in this data directory; unlock it, or choose another --data-dir."
    )
}
