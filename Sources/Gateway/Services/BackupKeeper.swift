import Dispatch
import Foundation
import Logging
import Operations
import ServiceLifecycle
import Store
import Synchronization

/// Writes the automatic backups of `[backup]` (``Operations/AutomaticBackups``): at start-up
/// when the newest backup in the directory is at least an interval old (or there is none), then
/// every interval, sleeping until each due time in between.
///
/// A failed backup (a full disk, a directory gone or unwritable) is logged as an error once,
/// with the reason, until a backup works again (later failures at debug level); it is tried again at the next due time or after
/// an hour, whichever is sooner. The daemon runs on regardless. A stop during a copy ends it
/// after the step it is in, and nothing of it is left. Leftovers of copies a killed daemon left
/// are removed at start-up and before each backup (``Operations/AutomaticBackups/removeLeftovers(in:now:)``).
struct BackupKeeper: Service {
    let store: GatewayStore
    let directory: URL
    let settings: BackupSettings
    let ledger: BackupLedger
    let logger: Logger
    /// Where the copy runs: it reads the whole store and blocks, so never on Swift's pool.
    private let queue = DispatchQueue(label: "smsgw.gateway.backup")
    /// Set once a stop cancelled this keeper's task; the copy asks between its steps.
    let stopping = Stopping()
    /// Called between two steps of a copy, before it asks whether to stop: tests hold a copy
    /// there until their stop has reached it (``stopping``).
    let betweenSteps: @Sendable (Stopping) -> Void

    init(
        store: GatewayStore, directory: URL, settings: BackupSettings, ledger: BackupLedger, logger: Logger,
        betweenSteps: @escaping @Sendable (Stopping) -> Void = { _ in }
    ) {
        self.betweenSteps = betweenSteps
        self.store = store
        self.directory = directory
        self.settings = settings
        self.ledger = ledger
        var logger = logger
        logger[metadataKey: GatewayLog.backupDirectory] = "\(directory.path)"
        self.logger = logger
    }

    func run() async throws {
        // Directory reads, on the keeper's queue too: a hung mount holds that thread, not the pool's.
        let (directory, interval) = (self.directory, settings.intervalSeconds)
        let (removed, first, existing) = await withCheckedContinuation {
            (continuation: CheckedContinuation<([String], Date, [(file: URL, date: Date)]?), Never>) in
            queue.async {
                let removed = AutomaticBackups.removeLeftovers(in: directory, now: Date())
                let first = AutomaticBackups.firstDue(in: directory, interval: interval, now: Date())
                continuation.resume(returning: (removed, first, try? AutomaticBackups.existing(in: directory)))
            }
        }
        noteRemoved(removed)
        ledger.noteStart(newest: existing?.last, count: existing?.count, due: first)
        await cancelWhenGracefulShutdown {
            var due = first
            var failing = false
            while !Task.isCancelled {
                let wait = due.timeIntervalSinceNow
                if wait > 0 {
                    // A day at most per wait (``WakeSignal``): the loop looks at the clock again.
                    await WakeSignal.sleep(until: .now + .milliseconds(Int64(wait * 1000) + 5))
                    continue
                }
                due = await attempt(due: due, failing: &failing)
            }
        }
    }

    /// One backup; returns when the next is due.
    private func attempt(due: Date, failing: inout Bool) async -> Date {
        let (store, directory, keep, queue) = (self.store, self.directory, settings.keep, self.queue)
        // A stop cancels this task: the copy sees it after its current step and ends.
        let (stopping, betweenSteps) = (self.stopping, self.betweenSteps)
        let (removed, result) = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<([String], Result<AutomaticBackups.Written, any Error>), Never>) in
                queue.async {
                    let removed = AutomaticBackups.removeLeftovers(in: directory, now: Date())
                    let result = Result {
                        try AutomaticBackups.write(
                            store, into: directory, keep: keep, now: Date(),
                            stop: {
                                betweenSteps(stopping)
                                return stopping.isSet
                            })
                    }
                    continuation.resume(returning: (removed, result))
                }
            }
        } onCancel: {
            stopping.set()
        }
        noteRemoved(removed)
        let now = Date()
        switch result {
        case .failure(let error) where error is CancellationError:
            logger.info("Automatic backup stopped by the daemon's stop; its partial copy was removed.")
            return due
        case .success(let written):
            let next = now.addingTimeInterval(settings.intervalSeconds)
            ledger.noteSuccess(written.file, count: written.kept, now: now, next: next)
            if failing { logger.notice("Automatic backups work again.") }
            failing = false
            logger.info(
                "Automatic backup written.",
                metadata: [GatewayLog.backupFile: "\(written.file.lastPathComponent)", GatewayLog.count: "\(written.deleted.count)"])
            if !written.undeletable.isEmpty {
                logger.warning(
                    "Could not delete old automatic backups beyond keep.",
                    metadata: [GatewayLog.error: "\(written.undeletable.joined(separator: "; "))"])
            }
            return next
        case .failure(let error):
            let next = AutomaticBackups.retry(due: due, interval: settings.intervalSeconds, now: now)
            let reason = "\(error)"
            let failures = ledger.noteFailure(reason, now: now, next: next)
            // Once until one works again: a backup failing every hour for days is one problem,
            // not a log full of them (the status keeps the latest reason).
            let level: Logger.Level = failures == 1 ? .error : .debug
            logger.log(
                level: level, "Automatic backup failed; the daemon tries again later.",
                metadata: [
                    GatewayLog.error: "\(reason)", GatewayLog.count: "\(failures)",
                    GatewayLog.backupNext: "\(OperationsJSON.timestamp(next))",
                ])
            failing = true
            return next
        }
    }

    /// Logs leftovers of interrupted backups that were removed, if any.
    private func noteRemoved(_ names: [String]) {
        guard !names.isEmpty else { return }
        logger.notice(
            "Removed what interrupted automatic backups left behind.",
            metadata: [GatewayLog.backupFile: "\(names.joined(separator: ", "))", GatewayLog.count: "\(names.count)"])
    }

    /// Whether a stop cancelled the keeper's task.
    final class Stopping: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .relaxed) }
        func set() { flag.store(true, ordering: .relaxed) }
    }
}
