public import Foundation

/// What one heartbeat did: the claims it passed on, and every node as the store knows it then.
public struct NodeHeartbeat: Sendable, Hashable {
    /// Outbox rows of other nodes whose lease had ended, queued again for any node (same body).
    public var requeued: Int
    /// Every node, by name, this one included.
    public var nodes: [NodeRecord]
    /// The node's row as another run of a daemon with this name holds it, when one took it over
    /// (this run's heartbeats stopped for longer than its lease, or two daemons share the name);
    /// the heartbeat then changed nothing, and this run must stop.
    public var takenOver: NodeRecord?

    public init(requeued: Int, nodes: [NodeRecord], takenOver: NodeRecord? = nil) {
        self.requeued = requeued
        self.nodes = nodes
        self.takenOver = takenOver
    }
}

extension StoreTransaction {
    /// Records that `node` started: its row says so, with a fresh heartbeat, no stop time and
    /// this run's instance, whatever held the row before.
    public func startNode(_ node: GatewayNode, now: Date) throws {
        let time = now.timeIntervalSince1970
        try db.execute(
            sql: """
                INSERT INTO nodes (name, version, started_at, heartbeat_at, stopped_at, health_seconds, lease_seconds, instance, place)
                VALUES (?1, ?2, ?3, ?3, NULL, ?4, ?5, ?6, ?7)
                ON CONFLICT (name) DO UPDATE SET version = excluded.version, started_at = excluded.started_at,
                    heartbeat_at = excluded.heartbeat_at, stopped_at = NULL, health_seconds = excluded.health_seconds,
                    lease_seconds = excluded.lease_seconds, instance = excluded.instance, place = excluded.place
                """,
            arguments: [node.name, node.version, time, node.healthSeconds, node.leaseSeconds, node.instance, node.place])
    }

    /// Records that `node` started, unless another run of a daemon with its name holds the row
    /// and is up (not stopped, its heartbeat within its lease): two daemons with one name would
    /// renew each other's claims as their own. A row whose lease ran out (a daemon that died),
    /// that names no run, or that a run at this run's ``GatewayNode/place`` recorded (this run
    /// holds the lock that run held, so it has ended) is taken.
    ///
    /// - Returns: Nil once recorded; the row of the run that holds the name, untouched, otherwise.
    public func claimNode(_ node: GatewayNode, now: Date) throws -> NodeRecord? {
        if let holder = try otherRun(of: node, upAt: now) { return holder }
        try startNode(node, now: now)
        return nil
    }

    /// Records `node`'s heartbeat: renews the lease of every row it is submitting, and queues
    /// again the rows other nodes claimed whose lease has ended, or whose node is down (no
    /// heartbeat within its lease, not stopped), so that any node sends them. A claim a node made
    /// after its last heartbeat has a lease running from the claim; without the second rule it
    /// would come back one heartbeat after the node's other work, and go out last.
    ///
    /// A row queued again keeps its body: it was sealed when it was queued and is never sealed
    /// again; if the node that claimed it had already handed it to its modem, the peer drops the
    /// second copy as a duplicate. On PostgreSQL the store's writes are serialisable: when two
    /// nodes queue the same row again at once, one commits and the other fails as busy, so the
    /// row is handed over once.
    ///
    /// When another run of a daemon with this name holds the row, nothing is written and the
    /// result's ``NodeHeartbeat/takenOver`` says so.
    public func recordHeartbeat(_ node: GatewayNode, now: Date) throws -> NodeHeartbeat {
        let time = now.timeIntervalSince1970
        try db.execute(
            sql: """
                UPDATE nodes SET heartbeat_at = ?1, stopped_at = NULL, instance = ?2
                WHERE name = ?3 AND (instance IS NULL OR instance = ?2)
                """,
            arguments: [time, node.instance, node.name])
        if db.changesCount == 0 {
            let all = try nodes()
            if let holder = all.first(where: { $0.name == node.name }) {
                return NodeHeartbeat(requeued: 0, nodes: all, takenOver: holder)
            }
            try startNode(node, now: now)
        }
        try db.execute(
            sql: "UPDATE outbox SET lease_until = ? WHERE state = 'submitting' AND node = ?",
            arguments: [time + node.leaseSeconds, node.name])
        try db.execute(
            sql: """
                UPDATE outbox SET state = 'queued', node = NULL, lease_until = NULL, next_attempt_at = ?1, updated_at = ?1
                WHERE state = 'submitting' AND node <> ?2 AND (lease_until < ?1 OR node IN (
                    SELECT name FROM nodes WHERE stopped_at IS NULL AND heartbeat_at + lease_seconds < ?1))
                """,
            arguments: [time, node.name])
        let requeued = db.changesCount
        if requeued > 0 { notifyOutbox() }
        return NodeHeartbeat(requeued: requeued, nodes: try nodes())
    }

    /// Records that the node `name` stopped cleanly: the status shows it stopped rather than
    /// down. Given `instance`, only while that run holds the row (a run that was taken over
    /// leaves the row to the run that took it).
    public func stopNode(named name: String, instance: String? = nil, now: Date) throws {
        let time = now.timeIntervalSince1970
        guard let instance else {
            return try db.execute(sql: "UPDATE nodes SET heartbeat_at = ?1, stopped_at = ?1 WHERE name = ?2", arguments: [time, name])
        }
        try db.execute(
            sql: "UPDATE nodes SET heartbeat_at = ?1, stopped_at = ?1 WHERE name = ?2 AND (instance IS NULL OR instance = ?3)",
            arguments: [time, name, instance])
    }

    /// Records every node still marked running as stopped at its last heartbeat: for a restored
    /// backup, whose runs ended after it was written (how, it cannot say), so that none shows as
    /// a daemon killed here, nor as up until its lease ends.
    ///
    /// - Returns: How many nodes it stopped.
    @discardableResult
    public func stopNodesLeftRunning() throws -> Int {
        try db.execute(sql: "UPDATE nodes SET stopped_at = heartbeat_at WHERE stopped_at IS NULL")
        return db.changesCount
    }

    /// Forgets the node `name`: its row and the status rows of the modems it drove, so that
    /// the status no longer lists them. Its claims, if any are left, pass to the other nodes
    /// once their lease has ended, as for any node that is down.
    ///
    /// - Returns: Whether there was such a node.
    public func forgetNode(named name: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM nodes WHERE name = ?", arguments: [name])
        guard db.changesCount > 0 else { return false }
        try db.execute(sql: "DELETE FROM modem_status WHERE node = ?", arguments: [name])
        return true
    }

    /// The row of `node`'s name when another run, elsewhere, holds it and is up at `now`.
    private func otherRun(of node: GatewayNode, upAt now: Date) throws -> NodeRecord? {
        guard
            let row = try db.row(
                sql: "SELECT * FROM nodes WHERE name = ? AND instance IS NOT NULL AND instance <> ?", arguments: [node.name, node.instance])
        else { return nil }
        if let place = node.place, row["place"] as String? == place { return nil }
        let holder = NodeRecord(row: row)
        return holder.liveness(at: now) == .up ? holder : nil
    }
}
