import Foundation

extension UnlockedStore {
    /// Replaces the data key: every sealed column is opened under the old key and sealed under a
    /// new random one with the same associated data, and the new key is wrapped under `kek`, all
    /// in one IMMEDIATE transaction (a crash leaves the old key and the old rows intact).
    ///
    /// Keyed PDU fingerprints cannot be rekeyed (the store never keeps the raw ones), and keeping
    /// them under the retired key would leave values its holder can test guesses against, so they
    /// are dropped: a PDU processed before the rotation and read again afterwards (left on the SIM,
    /// or delivered twice) is processed once more; the ratchet refuses an encrypted one as a
    /// duplicate without changing state, a plain one is logged a second time.
    ///
    /// - Returns: The keys to use from now on.
    func rotateDataKey(kek: KeyEncryptionKey, parameters: Argon2Parameters) throws -> AccountKeys {
        let old = keys.withLock { $0 }
        let new = DataKey.random()
        let generation = old.generation + 1
        try write { tx in
            let record = try AccountRecord.require(tx.db)
            for column in SealedColumn.all {
                try column.reseal(tx.db, from: old.dataKey, to: new)
            }
            try tx.db.execute(sql: "DELETE FROM received_pdus")
            try tx.db.execute(sql: "UPDATE messages SET fingerprint = NULL WHERE fingerprint IS NOT NULL")
            let wrapped = try new.wrapped(by: kek, for: .dataKey(account: accountID, twoFactor: record.twoFactor))
            try tx.saveKeyWrapping(wrapped, kek: kek, parameters: parameters, generation: generation)
        }
        return AccountKeys(dataKey: new, kek: kek, generation: generation)
    }
}

/// One column sealed under the data key (🔒 in docs/STORAGE.md), with the column that names
/// the row in its associated data.
///
/// Every such column must be listed in ``all``, or a key rotation would leave its rows sealed
/// under the retired key; `KeyRotationTests` checks the schema's BLOB columns against the list.
struct SealedColumn: Sendable {
    var table: String
    /// The column whose UUID the associated data names.
    var rowName: String
    var column: String
    var context: @Sendable (UUID) -> SecretContext

    static let all: [SealedColumn] = [
        SealedColumn(table: "contacts", rowName: "id", column: "session") { .contactSession($0) },
        SealedColumn(table: "contacts", rowName: "id", column: "pairing_code") { .contactPairingCode($0) },
        SealedColumn(table: "contacts", rowName: "id", column: "reassembly") { .contactReassembly($0) },
        SealedColumn(table: "messages", rowName: "uuid", column: "text") { .messageText($0) },
        SealedColumn(table: "otp_entries", rowName: "id", column: "secret") { .otpSecret($0) },
        SealedColumn(table: "otp_entries", rowName: "id", column: "state") { .otpState($0) },
        SealedColumn(table: "vault_items", rowName: "id", column: "body") { .vaultItem($0) },
        SealedColumn(table: "vault_history", rowName: "id", column: "body") { .vaultHistory($0) },
        SealedColumn(table: "vault_events", rowName: "id", column: "body") { .vaultEvent($0) },
        SealedColumn(table: "vault_parts", rowName: "id", column: "body") { .vaultPart($0) },
        SealedColumn(table: "account", rowName: "id", column: "two_factor_secret") { .twoFactorSecret(account: $0) },
        SealedColumn(table: "account", rowName: "id", column: "two_factor_state") { .twoFactorState(account: $0) },
        SealedColumn(table: "operators", rowName: "id", column: "password") { .operatorPassword($0) },
        SealedColumn(table: "operators", rowName: "id", column: "second_factor") { .operatorSecondFactor($0) },
        SealedColumn(table: "operators", rowName: "id", column: "second_factor_state") { .operatorSecondFactorState($0) },
    ]

    /// Columns that are BLOBs but not sealed under the data key.
    static let unsealedBlobs: Set<String> = [
        "account.kdf_salt", "account.wrapped_data_key", "api_tokens.token_hash", "idempotency_keys.request_hash",
        "idempotency_keys.token_id", "console_sessions.token_hash",
    ]

    /// How many rows one batch reads, so a long message log is never held in memory at once.
    private static let batchSize = 500

    /// Opens each row's blob with `old` and stores it sealed with `new`.
    ///
    /// Batches follow the row's unique name (a UUID), a key both backends have; SQLite's `rowid`
    /// is SQLite's own.
    func reseal(_ db: StoreDatabase, from old: DataKey, to new: DataKey) throws {
        var after = ""
        while true {
            let rows = try db.rows(
                sql: """
                    SELECT \(rowName) AS name, \(column) AS sealed FROM \(table)
                    WHERE \(rowName) > ? AND \(column) IS NOT NULL ORDER BY \(rowName) LIMIT ?
                    """,
                arguments: [after, Self.batchSize]
            )
            for row in rows {
                let name: String = row["name"]
                let context = context(try UUID.fromStore(name))
                let resealed = try new.seal(try old.open(row["sealed"], for: context), for: context)
                try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(rowName) = ?", arguments: [resealed, name])
            }
            guard let last = rows.last else { return }
            after = last["name"]
        }
    }
}
