import Foundation

/// A throw-away primary with a synchronous standby, for the failover tests: the primary is a
/// ``PostgresCluster`` of its own (not the shared one); the standby is its base backup
/// (`pg_basebackup -R`, streaming through a replication slot), started on a port of its own
/// with `cluster_name = standby`, and the primary waits for it on every commit
/// (`synchronous_standby_names = 'FIRST 1 (standby)'`, `synchronous_commit = on`). The
/// server's defaults replicate (`wal_level = replica`, ten WAL senders), and the backup runs
/// as the superuser, who may replicate, on the socket, which initdb's `local replication`
/// line trusts.
///
/// The primary is told to wait for the standby only after the backup is taken, with
/// `ALTER SYSTEM` in the primary's own configuration: the standby's copy of it names no
/// standby, so once promoted it commits without waiting for one that is not there. Stopped and
/// removed on ``stop()`` or when released.
public final class PostgresClusterPair: Sendable {
    /// The primary, whose superuser, password and databases the standby shares.
    public let primary: PostgresCluster
    /// The standby's loopback port.
    public let standbyPort: Int
    /// The standby's name, as `pg_stat_replication` and `synchronous_standby_names` know it.
    public static let standbyName = "standby"

    private var standbyData: String { "\(primary.directory.path)/standby" }

    /// Starts both and waits until the primary reports the standby synchronous.
    public init() throws(PostgresUnavailable) {
        primary = try PostgresCluster()
        do {
            standbyPort = try PostgresCluster.freePort()
            try makeStandby()
        } catch {
            primary.stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    private func makeStandby() throws(PostgresUnavailable) {
        let name = Self.standbyName
        try primary.run([
            primary.binaries.appendingPathComponent("pg_basebackup").path, "--pgdata=\(standbyData)",
            "--host=\(primary.socketDirectory)", "--port=\(primary.port)", "--username=\(primary.user)",
            "--write-recovery-conf", "--create-slot", "--slot=\(name)", "--wal-method=stream", "--no-sync",
        ])
        try primary.startServer(data: standbyData, port: standbyPort, log: "standby.log", settings: ["-c cluster_name=\(name)"])
        try primary.psql("ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (\(name))'")
        try primary.psql("SELECT pg_reload_conf()")
        try wait("the primary to report the standby synchronous") { () throws(PostgresUnavailable) in
            try primary.psql("SELECT sync_state FROM pg_stat_replication WHERE application_name = '\(name)'") == ["sync"]
        }
    }

    /// Stops the primary at once (`pg_ctl stop --mode=immediate`), as a lost host: its
    /// connections drop, nothing is shut down cleanly.
    public func stopPrimary() throws(PostgresUnavailable) {
        try primary.run([
            primary.binaries.appendingPathComponent("pg_ctl").path, "stop", "--pgdata=\(primary.directory.path)/data",
            "--mode=immediate", "--wait",
        ])
    }

    /// Promotes the standby (`pg_ctl promote`) and waits until it takes writes.
    public func promoteStandby() throws(PostgresUnavailable) {
        try primary.run([primary.binaries.appendingPathComponent("pg_ctl").path, "promote", "--pgdata=\(standbyData)", "--wait"])
        try wait("the promoted standby to take writes") { () throws(PostgresUnavailable) in
            try primary.psql("SELECT pg_is_in_recovery()", port: standbyPort) == ["f"]
        }
    }

    /// Stops the standby, then the primary, and removes their directory.
    public func stop() {
        _ = try? primary.run([
            primary.binaries.appendingPathComponent("pg_ctl").path, "stop", "--pgdata=\(standbyData)", "--mode=immediate",
        ])
        primary.stop()
    }

    /// Polls `condition` every 0.2 s for up to 120 s.
    private func wait(_ what: String, _ condition: () throws(PostgresUnavailable) -> Bool) throws(PostgresUnavailable) {
        let deadline = Date().addingTimeInterval(120)
        while try !condition() {
            guard Date() < deadline else { throw PostgresUnavailable("timed out waiting for \(what)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
