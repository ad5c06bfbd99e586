import Foundation
import Logging

extension GatewayStore {
    /// Unlocks the account of a read-only store (``readOnly``) without writing anything.
    ///
    /// A lock the store recorded still holds, but no failure can be counted, so guessing here
    /// never locks the account. That is no weaker than the file itself: whoever can read it can
    /// copy it and guess offline at any pace. With two-factor login on, the code is checked
    /// against the enrolment and the state the store last recorded (a code used before the
    /// store became read-only is still refused), but an accepted code cannot be marked used: it
    /// can be given again until the authenticator moves on. An older smsgw's wrapping that an
    /// unlock would renew is used as it is.
    ///
    /// - Throws: as ``unlock(passphrase:now:secondFactor:)``, with no lock ever caused by this
    ///   attempt and no count of remaining attempts (nil: none is counted).
    func unlockReadOnly(passphrase: String, now: Date, secondFactor: SecondFactorCheck?) throws -> UnlockedStore {
        let record = try StoreError.wrapping { try readTransaction { db in try AccountRecord.require(db) } }
        if let until = record.lockedUntil, until > now { throw StoreError.lockedOut(until: until) }
        try record.parameters.validate()
        let kek = try KeyEncryptionKey.derive(passphrase: passphrase, salt: record.salt, parameters: record.parameters)
        guard let (dataKey, _) = try Self.unwrapDataKey(record, with: kek) else {
            logger.notice("Wrong passphrase for the gateway account (read-only store, not counted).")
            throw StoreError.authenticationFailed(remainingAttempts: nil)
        }
        if record.twoFactor {
            let failure = try StoreError.wrapping {
                try readTransaction { db -> SecondFactorFailure? in
                    let stored = try StoredSecondFactor.load(db, record: record, dataKey: dataKey)
                    guard let secondFactor else { return .missing }
                    return try secondFactor(stored.enrolment).failure
                }
            }
            if let failure {
                logger.notice("Second factor refused for the gateway account (read-only store, not counted).")
                throw StoreError.secondFactorFailed(failure, remainingAttempts: nil)
            }
        }
        let keys = AccountKeys(dataKey: dataKey, kek: kek, generation: record.keyGeneration)
        return UnlockedStore(gateway: self, accountID: record.id, username: record.username, keys: keys)
    }
}
