import Foundation
import Logging

extension UnlockedStore {
    /// Whether two-factor login is on.
    public var twoFactorEnabled: Bool {
        get throws { try read { reader in try AccountRecord.require(reader.db).twoFactor } }
    }

    /// Turns two-factor login on with `enrolment` (the caller checked a first code against it).
    ///
    /// The secret and its state are sealed in the account row, and the data key is rewrapped
    /// with the setting in its associated data, so clearing the setting or deleting the secret
    /// in the file makes every later unlock fail instead of switching the code off.
    /// - Throws: ``StoreError/alreadyExists(_:)`` when it is already on,
    ///   ``StoreError/invalidState(_:)`` when another process changed the passphrase meanwhile.
    public func enableTwoFactor(_ enrolment: SecondFactorEnrolment) throws {
        let keys = keys.withLock { $0 }
        try write { tx in
            let record = try AccountRecord.require(tx.db)
            guard !record.twoFactor else {
                throw StoreError.alreadyExists(
                    "Two-factor login is already on; turn it off first to enrol a new secret."
                )
            }
            let wrapped = try rewrap(record, keys: keys, twoFactor: true)
            try tx.db.execute(
                sql: """
                    UPDATE account SET two_factor = 1, two_factor_secret = ?, two_factor_state = ?,
                        wrapped_data_key = ?, updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    try keys.dataKey.seal(enrolment.secret, for: .twoFactorSecret(account: accountID)),
                    try enrolment.state.map { blob throws(StoreError) in
                        try keys.dataKey.seal(blob, for: .twoFactorState(account: accountID))
                    },
                    wrapped, tx.now, accountID.storeString,
                ]
            )
        }
        logger.notice("Turned two-factor login on.")
    }

    /// Turns two-factor login off: deletes the secret and rewraps the data key without the setting.
    ///
    /// - Returns: false when it was already off.
    @discardableResult
    public func disableTwoFactor() throws -> Bool {
        let keys = keys.withLock { $0 }
        let changed = try write { tx -> Bool in
            let record = try AccountRecord.require(tx.db)
            guard record.twoFactor else { return false }
            let wrapped = try rewrap(record, keys: keys, twoFactor: false)
            try tx.db.execute(
                sql: """
                    UPDATE account SET two_factor = 0, two_factor_secret = NULL, two_factor_state = NULL,
                        wrapped_data_key = ?, updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [wrapped, tx.now, accountID.storeString]
            )
            // Where an older smsgw kept the secret.
            try tx.db.execute(
                sql: "DELETE FROM otp_entries WHERE name_key = ?",
                arguments: [NameRules.key(for: OTPEntry.reservedLoginName)]
            )
            return true
        }
        if changed { logger.notice("Turned two-factor login off.") }
        return changed
    }

    /// The data key wrapped for a new two-factor setting, with the key-encryption key this
    /// process derived at unlock.
    private func rewrap(_ record: AccountRecord, keys: AccountKeys, twoFactor: Bool) throws -> Data {
        // A new salt means another process changed the passphrase: our key no longer matches it.
        guard record.salt == keys.kek.salt else { throw StoreError.accountChanged }
        return try keys.dataKey.wrapped(by: keys.kek, for: .dataKey(account: accountID, twoFactor: twoFactor))
    }
}
