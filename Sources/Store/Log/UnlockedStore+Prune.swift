public import Foundation

/// What ``UnlockedStore/pruneLog(before:batchSize:progress:stopRequested:)`` removed.
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
    /// Whether it stopped early, when asked to, after a batch: the log is consistent, some of the
    /// old rows are left, and running it again deletes them.
    public var stopped = false
}

/// How far a prune has come, after each batch of messages it deleted.
public struct LogPruneProgress: Sendable, Equatable {
    /// Messages deleted so far.
    public var deleted: Int
    /// Messages the prune found to delete as it began (a message queued or sent meanwhile can
    /// make the end differ a little).
    public var total: Int
}

extension UnlockedStore {
    /// How many rows one transaction of a prune deletes at most (docs/PERFORMANCE.md, "Pruning
    /// in batches"): about 40 ms of SQLite's work with a message's feed rows, events and outbox
    /// row on a store of 500,000 messages.
    public static let pruneBatchSize = 1_000

    /// The wait between two of a prune's transactions on SQLite, during which another process's
    /// write gets in: longer than the longest sleep of SQLite's busy handler (100 ms), so a
    /// writer waiting for the lock always wakes while it is free. PostgreSQL queues the waiting
    /// writers on its lock and serves them first; it needs no wait.
    static let prunePause: TimeInterval = 0.12

    /// Deletes logged messages older than `cutoff`, texts included, so the log does not keep every
    /// text for ever (forward secrecy covers the key state, not the log: docs/PROTOCOL.md §7.4),
    /// with the journal events and finished webhook deliveries of that age.
    ///
    /// A message still waiting in the outbox (queued or being submitted) is kept whatever its age;
    /// its outbox row goes with it otherwise. The rows go in batches of at most `batchSize`, each
    /// in a transaction of its own (a message with its feed rows, events and outbox row), so other
    /// writers (the daemon logging an SMS) get in between: a prune stopped half way leaves a
    /// consistent log without some of the old rows, and running it again deletes the rest.
    /// `secure_delete` zeroes the freed pages, and a truncating checkpoint then removes their old
    /// images from the `-wal` file.
    ///
    /// - Parameters:
    ///   - progress: Called after each batch of messages; throwing stops the prune there, without
    ///     the checkpoint.
    ///   - stopRequested: Asked before each batch (and after the pause before it): true stops the
    ///     prune there, before its next transaction, and it still checkpoints
    ///     (``LogPruneResult/stopped``). For a signal that asks a prune to stop.
    public func pruneLog(
        before cutoff: Date, batchSize: Int = UnlockedStore.pruneBatchSize, progress: (LogPruneProgress) throws -> Void = { _ in },
        stopRequested: () -> Bool = { false }
    ) throws -> LogPruneResult {
        let time = cutoff.timeIntervalSince1970
        let pause: TimeInterval = if case .sqlite = gateway.backend { Self.prunePause } else { 0 }
        var pacer = PrunePacer(pause: pause)
        let total = try StoreError.wrapping {
            try gateway.readTransaction { db in
                try db.value(Int.self, sql: "SELECT COUNT(*) FROM messages WHERE \(PruneStep.oldMessages)", arguments: [time])
            }
        }
        var result = LogPruneResult(deleted: 0, eventsDeleted: 0, deliveriesDeleted: 0, walTruncated: false)
        try deleteInBatches(.messages(before: time), size: batchSize, pacer: &pacer, stopRequested: stopRequested) { rows, events in
            result.deleted += rows
            result.eventsDeleted += events
            try progress(LogPruneProgress(deleted: result.deleted, total: max(total ?? 0, result.deleted)))
        }
        // The journal and the deliveries would otherwise grow for ever. A delivery still
        // pending, and an event an enabled endpoint has not been given yet, stay.
        try deleteInBatches(.deliveries(before: time), size: batchSize, pacer: &pacer, stopRequested: stopRequested) { rows, _ in
            result.deliveriesDeleted += rows
        }
        try deleteInBatches(.events(before: time), size: batchSize, pacer: &pacer, stopRequested: stopRequested) { rows, _ in
            result.eventsDeleted += rows
        }
        result.stopped = pacer.stopped
        // A running daemon's readers can keep the checkpoint from finishing; the deletion stands.
        result.walTruncated = gateway.truncateWriteAheadLogOnce()
        logger.notice(
            result.stopped ? "Stopped pruning the message log as asked; running it again deletes the rest." : "Pruned the message log.",
            metadata: [StoreLog.pruned: "\(result.deleted)"])
        return result
    }

    /// Deletes `step`'s rows oldest first, at most `size` in each transaction, telling `deleted`
    /// each batch's rows and the events deleted with them by cascade.
    ///
    /// Each batch's ids are found first in a read, which takes no lock; the transaction then
    /// deletes the rows of that id range that still match, so it reads only those.
    private func deleteInBatches(
        _ step: PruneStep, size: Int, pacer: inout PrunePacer, stopRequested: () -> Bool,
        deleted: (_ rows: Int, _ events: Int) throws -> Void
    ) throws {
        var cursor: Int64 = 0
        while true {
            let upper = try StoreError.wrapping {
                try gateway.readTransaction { db in
                    try db.value(
                        Int64.self,
                        sql: """
                            SELECT MAX(id) FROM (SELECT id FROM \(step.table) WHERE id > ? AND \(step.condition)
                                ORDER BY id LIMIT ?) AS chosen
                            """,
                        arguments: [cursor] + step.arguments + [size])
                }
            }
            guard let upper, pacer.mayWrite(unless: stopRequested) else { return }
            let range = "id > ? AND id <= ? AND \(step.condition)"
            let arguments: StoreArguments = [cursor, upper] + step.arguments
            let counts = try write { tx -> (rows: Int, events: Int) in
                // Deleting a message deletes its events by cascade; counted before they go.
                let events =
                    step.table == "messages"
                    ? try tx.db.value(
                        Int.self, sql: "SELECT COUNT(*) FROM events WHERE message_id IN (SELECT id FROM messages WHERE \(range))",
                        arguments: arguments) ?? 0 : 0
                try tx.db.execute(sql: "DELETE FROM \(step.table) WHERE \(range)", arguments: arguments)
                return (tx.db.changesCount, events)
            }
            cursor = upper
            try deleted(counts.rows, counts.events)
        }
    }
}

/// The rows one part of a prune deletes: a table (with an integer `id`) and the condition on its
/// rows, with that condition's arguments.
private struct PruneStep {
    let table: String
    let condition: String
    let arguments: StoreArguments

    /// Messages logged before the cutoff (its one argument) and not waiting in the outbox.
    static let oldMessages = """
        time < ? AND id NOT IN (SELECT message_id FROM outbox
            WHERE message_id IS NOT NULL AND state IN ('queued', 'submitting'))
        """

    static func messages(before time: Double) -> PruneStep {
        PruneStep(table: "messages", condition: oldMessages, arguments: [time])
    }

    static func deliveries(before time: Double) -> PruneStep {
        PruneStep(table: "webhook_deliveries", condition: "state <> 'pending' AND updated_at < ?", arguments: [time])
    }

    static func events(before time: Double) -> PruneStep {
        PruneStep(
            table: "events",
            condition: """
                time < ? AND id <= COALESCE((SELECT MIN(cursor) FROM webhook_endpoints WHERE disabled_at IS NULL), id)
                    AND id NOT IN (SELECT event_id FROM webhook_deliveries WHERE state = 'pending')
                """,
            arguments: [time])
    }
}

/// The wait between a prune's transactions (``UnlockedStore/prunePause``), none before the
/// first, and whether it was asked to stop: once asked, it writes no more.
private struct PrunePacer {
    let pause: TimeInterval
    private var wrote = false
    private(set) var stopped = false

    init(pause: TimeInterval) { self.pause = pause }

    /// Waits before a transaction after the first; false when the prune is to stop instead.
    mutating func mayWrite(unless stopRequested: () -> Bool) -> Bool {
        stopped = stopped || stopRequested()
        if !stopped, wrote, pause > 0 {
            Thread.sleep(forTimeInterval: pause)
            stopped = stopRequested()
        }
        wrote = true
        return !stopped
    }
}
