public import Foundation
public import Store

extension GatewayStatus {
    /// Modems (as the daemons last recorded them), the nodes, the queue, every contact's sync
    /// state, the sent SMS never confirmed (``Unconfirmed``) and the PostgreSQL server's notification queue, from one read snapshot of the store,
    /// and whether the store is read-only.
    ///
    /// - Parameters:
    ///   - now: The clock, for which failures are recent enough to list and which nodes are down.
    ///   - ended: The node rows that daemons which ended left (known from the data directory's
    ///     lock); they are marked ``NodeStatus/stoppedUncleanly`` unless they stopped cleanly.
    public static func read(from store: UnlockedStore, now: Date, ended: EndedRuns? = nil) throws -> GatewayStatus {
        var status = try store.read { reader in
            let counts = try reader.outboxCounts()
            var outbox: [OutboxState: Int] = [:]
            for state in OutboxState.allCases { outbox[state] = counts[state] ?? 0 }
            let modems = try reader.modemStatuses()
            var status = GatewayStatus(
                modems: modems, nodes: try nodes(in: reader, modems: modems, now: now, ended: ended), outbox: outbox,
                queue: try queueEntries(in: reader, now: now),
                contacts: try reader.contacts().map { try ContactStatus.read($0, in: reader) })
            status.notificationQueueUsage = try reader.notificationQueueUsage()
            status.unconfirmed = try Unconfirmed.read(in: reader, now: now)
            return status
        }
        status.storeReadOnly = store.gateway.readOnly
        return status
    }

    /// The status with only what the console's banners say (the console's `StatusPage.banners`),
    /// from one small read snapshot: the modems and the nodes, of the contacts only those whose
    /// keys were restored from a backup and not resynced since, the sent SMS never confirmed and
    /// the PostgreSQL server's notification queue; no outbox counts and no queue. The
    /// log and status pages ask for their banners every few seconds, each open page on its own,
    /// and the whole status reads every contact's session, outbox and quarantine.
    ///
    /// - Parameters: as ``read(from:now:ended:)``.
    public static func readForBanners(from store: UnlockedStore, now: Date, ended: EndedRuns? = nil) throws -> GatewayStatus {
        try store.read { reader in
            let modems = try reader.modemStatuses()
            var status = GatewayStatus(
                modems: modems, nodes: try nodes(in: reader, modems: modems, now: now, ended: ended), outbox: [:],
                contacts: try reader.contactsWithRestoredKeys().map { try ContactStatus.read($0, in: reader) })
            status.notificationQueueUsage = try reader.notificationQueueUsage()
            status.unconfirmed = try Unconfirmed.read(in: reader, now: now)
            return status
        }
    }

    /// The status as a front end shows it: from the running daemon over its status socket (no
    /// passphrase, no unlock) when one holds the data directory's lock, else from the store,
    /// unlocked only then, with ``daemon`` saying that none runs. Then the node rows a daemon on
    /// this data directory recorded are those of a daemon that ended: one not stopped cleanly
    /// (`kill -9`, a crash) is marked ``NodeStatus/stoppedUncleanly``, whatever its lease says.
    ///
    /// - Parameters:
    ///   - directory: The data directory.
    ///   - now: The clock.
    ///   - wait: How long to wait for a daemon that holds its lock to listen (it makes its socket
    ///     once its store is unlocked).
    ///   - backups: The automatic backups as their directory holds them
    ///     (``AutomaticBackups/status(directory:intervalSeconds:keep:now:)``), nil when they are
    ///     off; called only when no daemon runs (a running one says itself).
    ///   - unlock: Unlocks the store (the front end asks for the passphrase); called only when no
    ///     daemon runs.
    /// - Throws: ``DaemonError`` (unavailable) when a daemon runs but gives no status; what
    ///   `backups`, `unlock` and the store throw.
    public static func current(
        in directory: URL, now: Date, wait: Double = 10, backups: () throws -> BackupStatus? = { nil },
        unlock: () throws -> UnlockedStore
    ) throws -> GatewayStatus {
        let daemon = Daemon.state(in: directory)
        if daemon.running { return try Daemon.status(in: directory, pid: daemon.pid ?? 0, wait: wait) }
        // Before the unlock: a configuration it cannot read costs no passphrase.
        let backup = Backups(try backups())
        let store = try unlock()
        var status = try read(from: store, now: now, ended: EndedRuns(place: Daemon.place(of: directory), holder: nil))
        // A daemon that took the lock while the store was read (systemd restarting a killed one)
        // may have recorded its own run at this place: ask it instead.
        let after = Daemon.state(in: directory)
        if after.running { return try Daemon.status(in: directory, pid: after.pid ?? 0, wait: wait) }
        status.daemon = .notRunning
        status.backup = backup
        return status
    }
}
