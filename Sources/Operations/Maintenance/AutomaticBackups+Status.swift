public import Foundation

extension AutomaticBackups {
    /// The automatic backups as `directory` holds them, for a status while no daemon runs: the
    /// newest and its time, how many there are, and whether the newest is older than twice the
    /// interval. Nothing is due and no attempt is known without a daemon: `nextDueAt`,
    /// `lastAttemptAt` and `lastError` are nil. A directory that cannot be read has a nil `count`.
    public static func status(directory: URL, intervalSeconds: Double, keep: Int, now: Date) -> GatewayStatus.BackupStatus {
        let backups = try? existing(in: directory)
        let newest = backups?.last
        var status = GatewayStatus.BackupStatus(
            directory: directory.path, intervalSeconds: intervalSeconds, keep: keep, count: backups?.count,
            lastSuccessAt: newest?.date, lastFile: newest?.file.path)
        status.overdue = newest.map { GatewayStatus.BackupStatus.isOverdue(since: $0.date, interval: intervalSeconds, now: now) } ?? false
        return status
    }
}
