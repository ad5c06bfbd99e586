public import Foundation

extension StoreTransaction {
    /// Records the fingerprint of a received PDU; false when it was already recorded.
    ///
    /// Call it in the transaction that verifies, advances and logs the message, then delete the
    /// SMS from the SIM only after the commit: an SMS read twice is processed once. The store
    /// keeps only the keyed form (``DataKey/fingerprint(_:)``), never the modem's raw hash.
    public func recordReceivedFingerprint(_ fingerprint: String, at time: Date = Date()) throws -> Bool {
        try db.execute(
            sql: "INSERT INTO received_pdus (fingerprint, received_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            arguments: [dataKey.fingerprint(fingerprint), time.timeIntervalSince1970])
        return db.changesCount == 1
    }

    /// Forgets fingerprints older than `date` (the SIM will not hold them that long); returns how many.
    @discardableResult
    public func pruneReceivedFingerprints(olderThan date: Date) throws -> Int {
        try db.execute(sql: "DELETE FROM received_pdus WHERE received_at < ?", arguments: [date.timeIntervalSince1970])
        return db.changesCount
    }
}

extension StoreReader {
    /// Whether a PDU fingerprint was already recorded.
    public func hasReceivedFingerprint(_ fingerprint: String) throws -> Bool {
        try db.value(
            Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM received_pdus WHERE fingerprint = ?)",
            arguments: [dataKey.fingerprint(fingerprint)]
        ) ?? false
    }
}
