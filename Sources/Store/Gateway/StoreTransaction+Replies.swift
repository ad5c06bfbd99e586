public import Foundation

/// Whether the gateway may send an automatic reply now (``StoreTransaction/admitAutomaticReply(to:limit:window:now:)``).
public enum ReplyAdmission: Sendable, Equatable {
    /// Within the budget: send it; it is counted.
    case admitted
    /// Over the budget: do not send. `firstInWindow` is true for the first reply withheld in the
    /// window, the one moment worth a log line.
    case withheld(firstInWindow: Bool)
}

extension StoreTransaction {
    /// Counts an automatic reply to `contact` against its budget of `limit` per `window`, in this
    /// transaction, so a crash or a restart never resets the count.
    ///
    /// An automatic reply is an SMS the gateway sends on its own because one arrived (a resync
    /// answer); the operator's own sends are not counted. Rows older than the window are deleted.
    /// - Parameters:
    ///   - limit: Most replies admitted per window; 0 admits none.
    ///   - window: The sliding window (one hour by default).
    public func admitAutomaticReply(
        to contact: Contact, limit: Int, window: TimeInterval = 3600, now: Date = Date()
    ) throws -> ReplyAdmission {
        let since = now.timeIntervalSince1970 - window
        let id = contact.id.storeString
        try db.execute(sql: "DELETE FROM automatic_replies WHERE contact_id = ? AND time <= ?", arguments: [id, since])
        let sent =
            try db.value(Int.self, sql: "SELECT COUNT(*) FROM automatic_replies WHERE contact_id = ? AND withheld = 0", arguments: [id])
            ?? 0
        let admitted = sent < limit
        let withheldBefore =
            admitted
            ? 0
            : try db.value(Int.self, sql: "SELECT COUNT(*) FROM automatic_replies WHERE contact_id = ? AND withheld = 1", arguments: [id])
                ?? 0
        try db.execute(
            sql: "INSERT INTO automatic_replies (contact_id, time, withheld) VALUES (?, ?, ?)",
            arguments: [id, now.timeIntervalSince1970, admitted ? 0 : 1])
        return admitted ? .admitted : .withheld(firstInWindow: withheldBefore == 0)
    }
}

extension StoreReader {
    /// How many times the exact SMS `body` was queued to `contact`, and when last: the attempts of
    /// a deterministic message such as a pending resync handshake.
    public func outboxAttempts(of body: String, to contact: Contact) throws -> (count: Int, lastQueuedAt: Date?) {
        let row = try db.row(
            sql: "SELECT COUNT(*) AS n, MAX(created_at) AS last FROM outbox WHERE contact_id = ? AND body = ?",
            arguments: [contact.id.storeString, body])
        let count: Int = row?["n"] ?? 0
        let last: Double? = row?["last"]
        return (count, last.map { Date(timeIntervalSince1970: $0) })
    }
}
