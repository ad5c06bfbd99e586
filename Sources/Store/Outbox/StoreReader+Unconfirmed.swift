public import Foundation

/// The rows the count of sent SMS never confirmed reads, as the partial index
/// `outbox_unconfirmed` holds them (docs/STORAGE.md, `v13-outbox-unconfirmed`): a statement that
/// repeats this condition word for word is answered from that index alone.
let unconfirmedRows = "state = 'sent' AND kind = 'text' AND acknowledged_at IS NULL AND checked_at IS NULL AND confirmable = 1"

extension OutboxItem {
    /// Whether this row is one of ``unconfirmedRows``: a text SMS that went out with something to
    /// confirm it and has had neither a report nor an acknowledgement, and no operator marked it
    /// checked. The status counts such rows once they are old enough.
    public var awaitsConfirmation: Bool {
        state == .sent && kind == .text && acknowledgedAt == nil && checkedAt == nil && confirmable
    }
}

extension StoreReader {
    /// The statement ``unconfirmedSent(before:since:)`` runs, with the cutoff and the start as arguments.
    static let unconfirmedCount =
        "SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM outbox WHERE \(unconfirmedRows) AND sent_at < ? AND sent_at >= ?"

    /// Text SMS that went out in `since ..< cutoff` and have had no confirmation since: no delivery
    /// report (the row is still `sent`) and no acknowledgement from the peer's gateway, though
    /// something could have confirmed them when they went out (`confirmable`), and not marked
    /// checked by an operator.
    ///
    /// - Parameters:
    ///   - cutoff: Rows sent at or after it are still within their time to be confirmed.
    ///   - since: Rows sent before it are history, left to the log.
    /// - Returns: How many there are and when the oldest of them went out (nil when none).
    public func unconfirmedSent(before cutoff: Date, since: Date) throws -> (count: Int, oldestSentAt: Date?) {
        let row = try db.row(sql: Self.unconfirmedCount, arguments: [cutoff.timeIntervalSince1970, since.timeIntervalSince1970])
        let count: Int = row?["n"] ?? 0
        return (count, (row?["oldest"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

extension StoreTransaction {
    /// Marks as checked, at `now`, the SMS ``StoreReader/unconfirmedSent(before:since:)`` counts
    /// for the same bounds: an operator asked the contact. A delivery report or an
    /// acknowledgement that comes later is still recorded.
    ///
    /// - Returns: How many SMS were marked.
    public func markUnconfirmedChecked(before cutoff: Date, since: Date, at now: Date) throws -> Int {
        try db.execute(
            sql: "UPDATE outbox SET checked_at = ?, updated_at = ? WHERE \(unconfirmedRows) AND sent_at < ? AND sent_at >= ?",
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, cutoff.timeIntervalSince1970, since.timeIntervalSince1970])
        return db.changesCount
    }

    /// Marks as checked, at `now`, the SMS of the outgoing message `messageID` that went out and
    /// have had neither a delivery report nor an acknowledgement, whenever they went out.
    ///
    /// - Returns: How many SMS were marked; 0 when none of the message's SMS waits for a confirmation.
    public func markUnconfirmedChecked(messageID: Int64, at now: Date) throws -> Int {
        try db.execute(
            sql: """
                UPDATE outbox SET checked_at = ?, updated_at = ?
                WHERE message_id = ? AND state = 'sent' AND kind = 'text' AND acknowledged_at IS NULL AND checked_at IS NULL
                """,
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, messageID])
        return db.changesCount
    }
}
