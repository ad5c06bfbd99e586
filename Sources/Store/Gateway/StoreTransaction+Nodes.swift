public import Foundation

/// What one heartbeat did: the claims it passed on, and every node as the store knows it then.
public struct NodeHeartbeat: Sendable, Hashable {
    /// Outbox rows of other nodes whose lease had ended, queued again for any node (same body).
    public var requeued: Int
    /// Every node, by name, this one included.
    public var nodes: [NodeRecord]
}

extension StoreTransaction {
    /// Records that `node` started: its row says so, with a fresh heartbeat and no stop time.
    public func startNode(_ node: GatewayNode, now: Date) throws {
        let time = now.timeIntervalSince1970
        try db.execute(
            sql: """
                INSERT INTO nodes (name, version, started_at, heartbeat_at, stopped_at, health_seconds, lease_seconds)
                VALUES (?1, ?2, ?3, ?3, NULL, ?4, ?5)
                ON CONFLICT (name) DO UPDATE SET version = excluded.version, started_at = excluded.started_at,
                    heartbeat_at = excluded.heartbeat_at, stopped_at = NULL, health_seconds = excluded.health_seconds,
                    lease_seconds = excluded.lease_seconds
                """,
            arguments: [node.name, node.version, time, node.healthSeconds, node.leaseSeconds])
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
    public func recordHeartbeat(_ node: GatewayNode, now: Date) throws -> NodeHeartbeat {
        let time = now.timeIntervalSince1970
        try db.execute(
            sql: "UPDATE nodes SET heartbeat_at = ?, stopped_at = NULL WHERE name = ?", arguments: [time, node.name])
        if db.changesCount == 0 { try startNode(node, now: now) }
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
        if requeued > 0 { try notifyOutbox() }
        return NodeHeartbeat(requeued: requeued, nodes: try nodes())
    }

    /// Records that `node` stopped cleanly: the status shows it stopped rather than down.
    public func stopNode(named name: String, now: Date) throws {
        try db.execute(
            sql: "UPDATE nodes SET heartbeat_at = ?1, stopped_at = ?1 WHERE name = ?2", arguments: [now.timeIntervalSince1970, name])
    }
}
