public import Foundation

extension StoreReader {
    /// Text SMS that went out in `since ..< cutoff` and have had no confirmation since: no delivery
    /// report (the row is still `sent`) and no acknowledgement from the peer's gateway.
    ///
    /// - Parameters:
    ///   - cutoff: Rows sent at or after it are still within their time to be confirmed.
    ///   - since: Rows sent before it are history, left to the log.
    /// - Returns: How many there are and when the oldest of them went out (nil when none).
    public func unconfirmedSent(before cutoff: Date, since: Date) throws -> (count: Int, oldestSentAt: Date?) {
        let row = try db.row(
            sql: """
                SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM outbox
                WHERE state = 'sent' AND kind = 'text' AND acknowledged_at IS NULL AND sent_at < ? AND sent_at >= ?
                """,
            arguments: [cutoff.timeIntervalSince1970, since.timeIntervalSince1970])
        let count: Int = row?["n"] ?? 0
        return (count, (row?["oldest"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}
