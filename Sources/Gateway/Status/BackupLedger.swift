import Foundation
import Operations
import Synchronization

/// What the daemon's automatic backups did, for the status (``Operations/GatewayStatus/backup``):
/// kept in memory by the ``BackupKeeper``, read by ``LiveStatus``.
final class BackupLedger: Sendable {
    private let state: Mutex<GatewayStatus.BackupStatus>
    /// When the daemon started: with no backup yet, the age the overdue check counts from.
    private let startedAt: Date

    init(directory: URL, settings: BackupSettings, startedAt: Date) {
        state = Mutex(GatewayStatus.BackupStatus(directory: directory.path, intervalSeconds: settings.intervalSeconds, keep: settings.keep))
        self.startedAt = startedAt
    }

    /// Notes the newest backup found in the directory at start-up, how many it holds (nil: it
    /// could not be read) and the first due time.
    func noteStart(newest: (file: URL, date: Date)?, count: Int?, due: Date) {
        state.withLock { state in
            state.count = count
            state.lastSuccessAt = newest?.date
            state.lastFile = newest?.file.path
            state.nextDueAt = due
        }
    }

    /// Notes a backup written at `now`, how many the directory holds now, and the next due time.
    func noteSuccess(_ file: URL, count: Int, now: Date, next: Date) {
        state.withLock { state in
            state.count = count
            state.lastSuccessAt = now
            state.lastFile = file.path
            state.lastAttemptAt = now
            state.lastError = nil
            state.consecutiveFailures = 0
            state.nextDueAt = next
        }
    }

    /// Notes an attempt that failed at `now` with `error`, and when the next comes.
    /// - Returns: The failures in a row, this one included.
    func noteFailure(_ error: String, now: Date, next: Date) -> Int {
        state.withLock { state in
            state.lastAttemptAt = now
            state.lastError = error
            state.consecutiveFailures += 1
            state.nextDueAt = next
            return state.consecutiveFailures
        }
    }

    /// The backups' state as of `now`; overdue when the newest backup (or, with none, the
    /// daemon's start) is older than twice the interval.
    func status(now: Date) -> GatewayStatus.BackupStatus {
        var status = state.withLock { $0 }
        let since = status.lastSuccessAt ?? startedAt
        status.overdue = GatewayStatus.BackupStatus.isOverdue(since: since, interval: status.intervalSeconds, now: now)
        return status
    }
}
