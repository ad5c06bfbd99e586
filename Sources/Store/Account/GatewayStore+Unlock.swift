public import Foundation
import Logging

extension GatewayStore {
    /// Unlocks the account with its passphrase and, when two-factor login is on, a code.
    ///
    /// The lockout is checked before Argon2 runs. The attempt is counted as a failure before
    /// the (slow) key derivation and cleared only when everything passed, so parallel guesses
    /// from several processes, or a process killed mid-derivation, still count.
    ///
    /// With two-factor login on (``twoFactorEnabled``), the caller reads the code *before*
    /// calling (a person never types while the unlock lock is held, and the prompt comes whether
    /// or not the passphrase is right) and passes a check that compares it. The check runs only
    /// after the passphrase proved right, in the transaction that stores the code's new
    /// verification state, so a code is accepted at most once across processes.
    ///
    /// - Parameters:
    ///   - passphrase: The account passphrase.
    ///   - now: The current time (a parameter so tests can move the clock).
    ///   - secondFactor: Compares the code read beforehand with the stored enrolment; nil when
    ///     no code was read (refused while two-factor login is on).
    /// - Throws: ``StoreError/lockedOut(until:)`` while locked,
    ///   ``StoreError/lockedByThisAttempt(until:secondFactor:)`` on the failure that locks,
    ///   ``StoreError/authenticationFailed(remainingAttempts:)`` for a wrong passphrase,
    ///   ``StoreError/secondFactorFailed(_:remainingAttempts:)`` for a missing, wrong or replayed
    ///   code, ``StoreError/corrupted(_:)`` when the two-factor setting was altered in the file,
    ///   ``StoreError/notFound(_:)`` when no account exists.
    ///
    /// A read-only store (``readOnly``) is unlocked without writing: ``unlockReadOnly(passphrase:now:secondFactor:)``.
    public func unlock(
        passphrase: String, now: Date = Date(), secondFactor: SecondFactorCheck? = nil
    ) throws -> UnlockedStore {
        if readOnly != nil { return try unlockReadOnly(passphrase: passphrase, now: now, secondFactor: secondFactor) }
        let (record, failures, lockedUntil) = try reserveAttempt(now: now)
        let kek = try KeyEncryptionKey.derive(passphrase: passphrase, salt: record.salt, parameters: record.parameters)
        guard let (dataKey, rewrap) = try Self.unwrapDataKey(record, with: kek) else {
            logger.notice("Wrong passphrase for the gateway account.", metadata: failureMetadata(failures, lockedUntil))
            if let lockedUntil { throw StoreError.lockedByThisAttempt(until: lockedUntil, secondFactor: false) }
            throw StoreError.authenticationFailed(
                remainingAttempts: lockoutPolicy.remainingAttempts(afterFailures: failures)
            )
        }
        let keys = AccountKeys(dataKey: dataKey, kek: kek, generation: record.keyGeneration)
        let (failure, upgraded) = try completeUnlock(record, keys: keys, rewrap: rewrap, secondFactor: secondFactor)
        if let failure {
            // A replayed code with the right passphrase was taken back (countsTowardLockout).
            let counted = failure.countsTowardLockout ? failures : failures - 1
            let lock = failure.countsTowardLockout ? lockedUntil : nil
            logger.notice("Second factor refused for the gateway account.", metadata: failureMetadata(counted, lock))
            if let lock { throw StoreError.lockedByThisAttempt(until: lock, secondFactor: true) }
            throw StoreError.secondFactorFailed(
                failure, remainingAttempts: lockoutPolicy.remainingAttempts(afterFailures: counted)
            )
        }
        if upgraded {
            // The raw fingerprints just replaced still sit in old page images of the -wal.
            _ = try? truncateWriteAheadLog()
        }
        return UnlockedStore(gateway: self, accountID: record.id, username: record.username, keys: keys)
    }

    /// Opens the wrapped data key under the two-factor setting the account row states.
    ///
    /// - Returns: The data key and whether its wrapping must be renewed (a database written
    ///   before the setting was bound, with two-factor login on), or nil for a wrong passphrase.
    /// - Throws: ``StoreError/corrupted(_:)`` when the key opens only under the other setting
    ///   and the row says two-factor login is off: someone cleared it in the file.
    static func unwrapDataKey(_ record: AccountRecord, with kek: KeyEncryptionKey) throws -> (DataKey, Bool)? {
        let stated = SecretContext.dataKey(account: record.id, twoFactor: record.twoFactor)
        if let key = DataKey.unwrap(record.wrappedDataKey, with: kek, for: stated) { return (key, false) }
        let other = SecretContext.dataKey(account: record.id, twoFactor: !record.twoFactor)
        guard let key = DataKey.unwrap(record.wrappedDataKey, with: kek, for: other) else { return nil }
        // Two-factor on, key wrapped unbound: written before the binding; the code is still asked.
        if record.twoFactor { return (key, true) }
        throw StoreError.twoFactorSettingAltered
    }

    /// Checks the second factor, upgrades what an older smsgw wrote and clears the failure
    /// count, in one IMMEDIATE transaction.
    ///
    /// - Returns: Why the second factor was refused (nil when accepted or off), and whether an
    ///   upgrade rewrote rows.
    private func completeUnlock(
        _ record: AccountRecord, keys: AccountKeys, rewrap: Bool, secondFactor: SecondFactorCheck?
    ) throws -> (SecondFactorFailure?, Bool) {
        try StoreError.wrapping {
            try writeTransaction { db -> (SecondFactorFailure?, Bool) in
                let current = try AccountRecord.require(db)
                guard current.id == record.id, current.wrappedDataKey == record.wrappedDataKey,
                    current.twoFactor == record.twoFactor
                else { throw StoreError.accountChanged }
                if current.twoFactor {
                    let stored = try StoredSecondFactor.load(db, record: current, dataKey: keys.dataKey)
                    if let failure = try stored.verify(secondFactor, db: db, dataKey: keys.dataKey) {
                        if !failure.countsTowardLockout { try Self.takeBackAttempt(db, before: record) }
                        return (failure, false)  // commits the new verification state; the failure stays counted
                    }
                }
                let upgraded = try AccountUpgrade.apply(db, record: current, keys: keys, rewrap: rewrap)
                try db.execute(
                    sql: "UPDATE account SET failed_attempts = 0, locked_until = NULL WHERE id = ?",
                    arguments: [record.id.storeString]
                )
                return (nil, upgraded)
            }
        }
    }

    /// Restores the failure count and lock `record` had before this attempt counted itself: for a
    /// replayed code with the right passphrase. Only a code that matched (an earlier one of the
    /// owner's) is taken back, so guessing codes is limited as before; the failures before it stay.
    private static func takeBackAttempt(_ db: StoreDatabase, before record: AccountRecord) throws {
        try db.execute(
            sql: "UPDATE account SET failed_attempts = ?, locked_until = ? WHERE id = ? AND failed_attempts = ?",
            arguments: [
                record.failedAttempts, record.lockedUntil?.timeIntervalSince1970, record.id.storeString, record.failedAttempts + 1,
            ]
        )
    }

    /// Checks the lock and counts this attempt as a failure, in one IMMEDIATE transaction.
    ///
    /// - Returns: The account row, the failure count including this attempt, and the lock
    ///   that applies if this attempt fails.
    private func reserveAttempt(now: Date) throws -> (AccountRecord, Int, Date?) {
        try StoreError.wrapping {
            try writeTransaction { db -> (AccountRecord, Int, Date?) in
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
                return (record, failures, lockedUntil)
            }
        }
    }

    private func failureMetadata(_ failures: Int, _ lockedUntil: Date?) -> Logger.Metadata {
        [
            StoreLog.failures: "\(failures)",
            StoreLog.lockedUntil: "\(lockedUntil.map { ISO8601DateFormatter().string(from: $0) } ?? "-")",
        ]
    }
}

extension StoreError {
    static let accountChanged = StoreError.invalidState(
        "The account was changed by another smsgw process at the same time; try again."
    )
}
