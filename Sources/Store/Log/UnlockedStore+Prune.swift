public import Foundation

/// What ``UnlockedStore/pruneLog(before:)`` removed.
public struct LogPruneResult: Sendable, Equatable {
    /// Messages deleted from the log, with their texts.
    public var deleted: Int
    /// Journal events deleted: those of the deleted messages, and older modem and contact events
    /// that every enabled webhook endpoint has been given and no pending delivery still needs.
    public var eventsDeleted: Int
    /// Finished (delivered or failed) webhook deliveries deleted.
    public var deliveriesDeleted: Int
    /// Whether the write-ahead log was folded into the database and emptied, so no copy of the
    /// deleted pages is left in the `-wal` file (false while another process kept reading).
    public var walTruncated: Bool
}

extension UnlockedStore {
    /// Deletes logged messages older than `cutoff`, texts included, so the log does not keep every
    /// text for ever (forward secrecy covers the key state, not the log: docs/PROTOCOL.md §7.4),
    /// with the journal events and finished webhook deliveries of that age.
    ///
    /// A message still waiting in the outbox (queued or being submitted) is kept whatever its age;
    /// its outbox row goes with it otherwise. `secure_delete` zeroes the freed pages, and a
    /// truncating checkpoint then removes their old images from the `-wal` file.
    public func pruneLog(before cutoff: Date) throws -> LogPruneResult {
        let time = cutoff.timeIntervalSince1970
        let counts = try write { tx -> (messages: Int, events: Int, deliveries: Int) in
            let eventsBefore = try tx.db.value(Int.self, sql: "SELECT COUNT(*) FROM events") ?? 0
            try tx.db.execute(
                sql: """
                    DELETE FROM messages WHERE time < ? AND id NOT IN (
                        SELECT message_id FROM outbox
                        WHERE message_id IS NOT NULL AND state IN ('queued', 'submitting'))
                    """,
                arguments: [time])
            let messages = tx.db.changesCount
            // The journal and the deliveries would otherwise grow for ever. A delivery still
            // pending, and an event an enabled endpoint has not been given yet, stay.
            try tx.db.execute(
                sql: "DELETE FROM webhook_deliveries WHERE state <> 'pending' AND updated_at < ?", arguments: [time])
            let deliveries = tx.db.changesCount
            try tx.db.execute(
                sql: """
                    DELETE FROM events WHERE time < ?
                        AND id <= COALESCE((SELECT MIN(cursor) FROM webhook_endpoints WHERE disabled_at IS NULL), id)
                        AND id NOT IN (SELECT event_id FROM webhook_deliveries WHERE state = 'pending')
                    """,
                arguments: [time])
            // Counted before and after: deleting a message deletes its events by cascade.
            let eventsAfter = try tx.db.value(Int.self, sql: "SELECT COUNT(*) FROM events") ?? 0
            return (messages, eventsBefore - eventsAfter, deliveries)
        }
        // A running daemon's readers can keep the checkpoint from finishing; the deletion stands.
        let truncated = gateway.truncateWriteAheadLogOnce()
        logger.notice("Pruned the message log.", metadata: [StoreLog.pruned: "\(counts.messages)"])
        return LogPruneResult(
            deleted: counts.messages, eventsDeleted: counts.events, deliveriesDeleted: counts.deliveries, walTruncated: truncated)
    }
}
