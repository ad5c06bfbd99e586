public import Failures
public import Foundation

/// Why a maintenance operation (a backup, a restore, pruning the log) refused.
public enum MaintenanceError: Error, Sendable, Hashable {
    /// There is no database in the data directory to work on.
    case noDatabase(path: String)
    /// A negative age was given for pruning.
    case negativeAge(days: Int)
    /// A daemon holds the data directory's lock, so its store may change under a copy or a restore.
    case daemonRunning(directory: String, pid: Int32)
    /// Daemons on other data directories (nodes of a PostgreSQL store) are up on the store a copy
    /// would move: they would go on sending from it.
    case nodesRunning(names: [String])
    /// A node to forget is up: its heartbeat at `heartbeatAt` holds until `leaseEndsAt`.
    case nodeUp(name: String, heartbeatAt: Date, leaseEndsAt: Date)
    /// The source and the target of a copy are the same database.
    case sameStore(location: String)
    /// A copied table holds other rows than its source (a count or a row differs).
    case copyDiffers(tables: [String])
    /// A restore was asked of a store on a database server, whose backups are the server's.
    case serverStore
    /// The store a restore would replace cannot be read (SQLite's words: `reason`), so it cannot
    /// be kept as a complete copy; replacing it needs the operator's consent.
    case unreadableStore(path: String, reason: String)
}

extension MaintenanceError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .noDatabase: .notFound
        case .negativeAge, .sameStore: .invalidInput
        case .daemonRunning, .nodesRunning, .nodeUp: .busy
        case .copyDiffers, .unreadableStore: .corrupted
        case .serverStore: .conflict
        }
    }

    public var description: String {
        switch self {
        case .noDatabase(let path): "There is no database at \(path); check the data directory."
        case .negativeAge(let days): "The age of \(days) days is negative; give a number of days ≥ 0."
        case .daemonRunning(let directory, let pid):
            "The daemon (process \(pid)) is running on \(directory); stop it first, so that nothing changes the store while it is copied or replaced."
        case .nodesRunning(let names):
            "The node\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") up on this store (\(names.count == 1 ? "its heartbeat is" : "their heartbeats are") within the lease); stop the daemon on each first: a node left running would go on sending from the old store with keys the copy uses too."
        case .nodeUp(let name, let heartbeat, let leaseEnd):
            "The node \(name) is up (its last heartbeat, at \(Self.time(heartbeat)), holds until \(Self.time(leaseEnd))); stop its daemon, or if it is gone, wait until its lease has ended, then forget it."
        case .sameStore(let location): "The target \(location) is the store itself; name another database or data directory."
        case .copyDiffers(let tables):
            "The copy's rows differ from the source's in \(tables.joined(separator: ", ")); do not use the target, and report this."
        case .serverStore:
            "The store runs on PostgreSQL, which this restore cannot replace; restore the database with the server's tools (pg_restore or a base backup) while every node's daemon is stopped."
        case .unreadableStore(let path, let reason):
            "The store \(path) cannot be read (\(reason)), so it cannot be kept as a complete copy; nothing was changed. To replace it anyway, restore again consenting to replace an unreadable store: it is then kept aside byte for byte, and ids may repeat those of the lost store if its counters cannot be read."
        }
    }

    /// A time as the errors name it: ISO 8601 in UTC, to the second.
    private static func time(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
