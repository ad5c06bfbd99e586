public import Foundation
public import Store

/// What ``LogRetention/prune(_:olderThanDays:now:progress:stopRequested:)`` did.
public struct LogPruneOutcome: Sendable, Hashable {
    /// Messages deleted from the log, with their texts.
    public var deleted: Int
    /// Journal events deleted (the deleted messages' and older ones every webhook was given).
    public var eventsDeleted: Int
    /// Finished webhook deliveries deleted.
    public var deliveriesDeleted: Int
    /// Messages logged before this time were deleted (unless still waiting to be sent).
    public var cutoff: Date
    /// Whether the write-ahead log was emptied too; false while another process (the daemon)
    /// kept reading, in which case it is emptied when that process stops.
    public var writeAheadLogEmptied: Bool
    /// Whether it stopped before its end, as asked: older messages are left, and the log is
    /// consistent; running it again deletes the rest.
    public var stopped: Bool
}

/// How long the message log keeps texts: until they are pruned. The protocol's forward secrecy
/// covers the key state, not the log (docs/PROTOCOL.md §7.4).
public enum LogRetention {
    /// Deletes the messages logged more than `days` days before `now`, texts included, except
    /// those still waiting in the outbox; freed pages are zeroed and the write-ahead log emptied.
    ///
    /// Not all or nothing: the rows go in short transactions of their own
    /// (``UnlockedStore/pruneLog(before:batchSize:progress:stopRequested:)``), so the daemon keeps logging
    /// meanwhile; one stopped half way is finished by running it again.
    ///
    /// - Parameters:
    ///   - days: 0 deletes every message not waiting to be sent.
    ///   - progress: Called after each batch of messages; throwing stops the prune there.
    ///   - stopRequested: Asked before each batch; true stops the prune there, after which the
    ///     write-ahead log is still emptied (``LogPruneOutcome/stopped``).
    /// - Throws: ``MaintenanceError/negativeAge(days:)``; the store's errors.
    public static func prune(
        _ store: UnlockedStore, olderThanDays days: Int, now: Date, progress: (LogPruneProgress) throws -> Void = { _ in },
        stopRequested: () -> Bool = { false }
    ) throws -> LogPruneOutcome {
        guard days >= 0 else { throw MaintenanceError.negativeAge(days: days) }
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        let result = try store.pruneLog(before: cutoff, progress: progress, stopRequested: stopRequested)
        return LogPruneOutcome(
            deleted: result.deleted, eventsDeleted: result.eventsDeleted, deliveriesDeleted: result.deliveriesDeleted, cutoff: cutoff,
            writeAheadLogEmptied: result.walTruncated, stopped: result.stopped)
    }
}
