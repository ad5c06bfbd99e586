public import Foundation

extension StoreTransaction {
    /// Queues the failed SMS of the logged message `messageID` again, as they were sealed (never
    /// sealed again: the peer drops a copy it already has), with their re-send counts and their
    /// counts of temporary failures cleared, and moves the log row back to `queued`.
    ///
    /// - Returns: How many SMS were queued again; 0 when none of the message's SMS had failed.
    @discardableResult
    public func requeueFailedOutbox(messageID: Int64, now: Date) throws -> Int {
        try db.execute(
            sql: """
                UPDATE outbox SET state = 'queued', error_permanent = 0, resends = 0, temporary_failures = 0, failing_since = NULL,
                    next_attempt_at = ?, updated_at = ?
                WHERE message_id = ? AND kind = 'text' AND state = 'failed'
                """,
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, messageID])
        let requeued = db.changesCount
        if requeued > 0 {
            try db.execute(
                sql: "UPDATE messages SET status = 'queued', error = NULL WHERE id = ? AND status = 'failed'", arguments: [messageID])
        }
        return requeued
    }
}
