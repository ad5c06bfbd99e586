import Foundation

/// The login second factor of one database, decrypted, and where it is stored: in the account
/// row, or in the `smsgw-login` OTP entry where smsgw kept it before the setting was bound into
/// the wrapping of the data key (moved into the account row by the first unlock that accepts a code).
struct StoredSecondFactor {
    var enrolment: SecondFactorEnrolment
    /// The legacy OTP entry's id, or nil when the secret is in the account row.
    var legacyEntry: UUID?
    var accountID: UUID

    /// Reads and decrypts the enrolment of an account whose two-factor login is on.
    ///
    /// - Throws: ``StoreError/corrupted(_:)`` when neither place holds it (deleted from the file).
    static func load(_ db: StoreDatabase, record: AccountRecord, dataKey: DataKey) throws -> StoredSecondFactor {
        if let sealed = record.twoFactorSecret {
            let state = try record.twoFactorState.map { blob throws(StoreError) in
                try dataKey.open(blob, for: .twoFactorState(account: record.id))
            }
            return StoredSecondFactor(
                enrolment: SecondFactorEnrolment(
                    secret: try dataKey.open(sealed, for: .twoFactorSecret(account: record.id)), state: state
                ),
                legacyEntry: nil, accountID: record.id
            )
        }
        guard
            let row = try db.row(
                sql: "SELECT id, secret, state FROM otp_entries WHERE name_key = ?",
                arguments: [NameRules.key(for: OTPEntry.reservedLoginName)]
            )
        else { throw StoreError.twoFactorSecretMissing }
        let id = try UUID.fromStore(row["id"])
        let sealedState: Data? = row["state"]
        return StoredSecondFactor(
            enrolment: SecondFactorEnrolment(
                secret: try dataKey.open(row["secret"], for: .otpSecret(id)),
                state: try sealedState.map { blob throws(StoreError) in try dataKey.open(blob, for: .otpState(id)) }
            ),
            legacyEntry: id, accountID: record.id
        )
    }

    /// Runs the caller's check and stores the verification state it returns.
    ///
    /// An accepted code also moves a legacy enrolment into the account row.
    /// - Returns: Why the code was refused, or nil when it was accepted.
    func verify(_ check: SecondFactorCheck?, db: StoreDatabase, dataKey: DataKey) throws -> SecondFactorFailure? {
        guard let check else { return .missing }
        let verdict = try check(enrolment)
        let state = verdict.state ?? enrolment.state
        if verdict.failure == nil, let legacyEntry {
            try db.execute(
                sql: "UPDATE account SET two_factor_secret = ?, two_factor_state = ? WHERE id = ?",
                arguments: [
                    try dataKey.seal(enrolment.secret, for: .twoFactorSecret(account: accountID)),
                    try state.map { blob throws(StoreError) in try dataKey.seal(blob, for: .twoFactorState(account: accountID)) },
                    accountID.storeString,
                ]
            )
            try db.execute(sql: "DELETE FROM otp_entries WHERE id = ?", arguments: [legacyEntry.storeString])
        } else if let newState = verdict.state, newState != enrolment.state {
            try save(state: newState, db: db, dataKey: dataKey)
        }
        return verdict.failure
    }

    private func save(state: Data, db: StoreDatabase, dataKey: DataKey) throws {
        if let legacyEntry {
            try db.execute(
                sql: "UPDATE otp_entries SET state = ? WHERE id = ?",
                arguments: [try dataKey.seal(state, for: .otpState(legacyEntry)), legacyEntry.storeString]
            )
        } else {
            try db.execute(
                sql: "UPDATE account SET two_factor_state = ? WHERE id = ?",
                arguments: [try dataKey.seal(state, for: .twoFactorState(account: accountID)), accountID.storeString]
            )
        }
    }
}
