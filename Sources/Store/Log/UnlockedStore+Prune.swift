public import Foundation

/// What ``UnlockedStore/pruneLog(before:)`` removed.
public struct LogPruneResult: Sendable, Equatable {
    /// Messages deleted from the log, with their texts.
    public var deleted: Int
    /// Whether the write-ahead log was folded into the database and emptied, so no copy of the
    /// deleted pages is left in the `-wal` file (false while another process kept reading).
    public var walTruncated: Bool
}

extension UnlockedStore {
    /// Deletes logged messages older than `cutoff`, texts included, so the log does not keep every
    /// text for ever (forward secrecy covers the key state, not the log: docs/PROTOCOL.md §7.4).
    ///
    /// A message still waiting in the outbox (queued or being submitted) is kept whatever its age;
    /// its outbox row goes with it otherwise. `secure_delete` zeroes the freed pages, and a
    /// truncating checkpoint then removes their old images from the `-wal` file.
    public func pruneLog(before cutoff: Date) throws -> LogPruneResult {
        let deleted = try write { tx -> Int in
            try tx.db.execute(
                sql: """
                    DELETE FROM messages WHERE time < ? AND id NOT IN (
                        SELECT message_id FROM outbox
                        WHERE message_id IS NOT NULL AND state IN ('queued', 'submitting'))
                    """,
                arguments: [cutoff.timeIntervalSince1970])
            return tx.db.changesCount
        }
        // A running daemon's readers can keep the checkpoint from finishing; the deletion stands.
        let truncated = gateway.truncateWriteAheadLogOnce()
        logger.notice("Pruned the message log.", metadata: [StoreLog.pruned: "\(deleted)"])
        return LogPruneResult(deleted: deleted, walTruncated: truncated)
    }
}
