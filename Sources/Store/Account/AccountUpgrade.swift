import Foundation

/// Brings what an earlier smsgw wrote up to date at the first unlock, the first moment the data
/// key is in memory (migrations run at open, without it).
///
/// Each step runs in the unlock's IMMEDIATE transaction and is marked done in the same
/// transaction, so it runs exactly once: a crash before the commit leaves everything as it was
/// and the next unlock does it again.
enum AccountUpgrade {
    /// Applies the pending steps; returns whether any rewrote rows.
    static func apply(_ db: StoreDatabase, record: AccountRecord, keys: AccountKeys, rewrap: Bool) throws -> Bool {
        var changed = false
        if !record.fingerprintsKeyed {
            try keyFingerprints(db, dataKey: keys.dataKey, account: record.id)
            changed = true
        }
        if rewrap {
            // Two-factor login was on before the setting was bound into the wrapping: bind it now.
            let wrapped = try keys.dataKey.wrapped(by: keys.kek, for: .dataKey(account: record.id, twoFactor: true))
            try db.execute(
                sql: "UPDATE account SET wrapped_data_key = ? WHERE id = ?", arguments: [wrapped, record.id.storeString]
            )
            changed = true
        }
        return changed
    }

    /// Replaces the unkeyed PDU fingerprints with keyed ones.
    ///
    /// The keyed value of an old fingerprint is the one a new read of the same SMS gets, as long
    /// as the modem computes the raw fingerprint the same way, so an SMS left on the SIM across
    /// the upgrade is still recognised as processed.
    static func keyFingerprints(_ db: StoreDatabase, dataKey: DataKey, account: UUID) throws {
        for raw in try db.values(String.self, sql: "SELECT fingerprint FROM received_pdus") {
            // The keyed form may be there already (the same SMS recorded twice): keep one row.
            let keyed = dataKey.fingerprint(raw)
            try db.execute(sql: "DELETE FROM received_pdus WHERE fingerprint = ?1 AND ?1 <> ?2", arguments: [keyed, raw])
            try db.execute(sql: "UPDATE received_pdus SET fingerprint = ? WHERE fingerprint = ?", arguments: [keyed, raw])
        }
        let rows = try db.rows(sql: "SELECT id, fingerprint FROM messages WHERE fingerprint IS NOT NULL")
        for row in rows {
            let raw: String = row["fingerprint"]
            let id: Int64 = row["id"]
            try db.execute(
                sql: "UPDATE messages SET fingerprint = ? WHERE id = ?", arguments: [dataKey.fingerprint(raw), id]
            )
        }
        try db.execute(sql: "UPDATE account SET fingerprints_keyed = 1 WHERE id = ?", arguments: [account.storeString])
    }
}
