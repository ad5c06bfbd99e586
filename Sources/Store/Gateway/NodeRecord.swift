public import Foundation

/// One gateway node: an `smsgw serve` process, by its `[node] name`, as it claims outbox rows.
///
/// Several nodes may share one store (on PostgreSQL). Each records a heartbeat every
/// `healthSeconds`; a node whose heartbeat is older than `leaseSeconds` is down, and the outbox
/// rows it claimed may be sent by the others.
public struct GatewayNode: Sendable, Hashable {
    /// The node's name, unique among the nodes of one store.
    public var name: String
    /// The smsgw version it runs, for the status.
    public var version: String
    /// How often it records its heartbeat.
    public var healthSeconds: Double
    /// How long after its last heartbeat its claims hold.
    public var leaseSeconds: Double
    /// This run of the daemon, random: two daemons started with one name hold different ones,
    /// so the second sees that the row is the first one's (``StoreTransaction/claimNode(_:now:)``).
    public var instance: String
    /// Where this run holds its data directory's lock (host and directory), when it does: a run
    /// at the same place that holds that lock proves the run recorded there before has ended
    /// (a daemon restarted after a crash need not wait for its own lease). Nil for none.
    public var place: String?

    /// A node; its lease is three heartbeats unless given, so one late heartbeat loses nothing.
    /// Each value made here is a new run of the node (a fresh ``instance``).
    public init(name: String, version: String = "", healthSeconds: Double = 30, leaseSeconds: Double? = nil) {
        self.name = name
        self.version = version
        self.healthSeconds = healthSeconds
        self.leaseSeconds = leaseSeconds ?? Self.leaseHeartbeats * healthSeconds
        self.instance = UUID().uuidString
    }

    /// Heartbeats a lease lasts by default.
    public static let leaseHeartbeats = 3.0
}

/// What the store knows of one node: when it started, its last heartbeat, whether it stopped.
public struct NodeRecord: Sendable, Hashable, Codable {
    /// The node's configured name.
    public var name: String
    /// The smsgw version it runs (empty when it did not say).
    public var version: String
    /// When it last started.
    public var startedAt: Date
    /// Its last heartbeat (or start, or stop).
    public var heartbeatAt: Date
    /// When it stopped cleanly; nil while it runs (or after it died without stopping).
    public var stoppedAt: Date?
    /// How often it records its heartbeat.
    public var healthSeconds: Double
    /// How long after its last heartbeat it counts as up and its claims hold.
    public var leaseSeconds: Double
    /// The run of a daemon that last held the row (``GatewayNode/instance``); nil for a row
    /// written before runs were recorded.
    public var instance: String?
    /// Where that run held its data directory's lock (``GatewayNode/place``); nil for none.
    public var place: String?

    /// Whether a node runs, as its heartbeat says.
    public enum Liveness: String, Sendable, Hashable, Codable, CaseIterable {
        /// Its last heartbeat is within its lease.
        case up
        /// Its last heartbeat is older than its lease: it died or lost the database. Its claims
        /// pass to the other nodes, and so do contacts pinned to its modems.
        case down
        /// It stopped cleanly.
        case stopped
    }

    public init(
        name: String, version: String, startedAt: Date, heartbeatAt: Date, stoppedAt: Date? = nil, healthSeconds: Double,
        leaseSeconds: Double, instance: String? = nil, place: String? = nil
    ) {
        self.name = name
        self.version = version
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.stoppedAt = stoppedAt
        self.healthSeconds = healthSeconds
        self.leaseSeconds = leaseSeconds
        self.instance = instance
        self.place = place
    }

    /// When its lease ends (or ended): its last heartbeat plus its lease.
    public var leaseEndsAt: Date { heartbeatAt.addingTimeInterval(leaseSeconds) }

    /// Whether the node is up, down or stopped at `now`.
    public func liveness(at now: Date) -> Liveness {
        if stoppedAt != nil { return .stopped }
        return now.timeIntervalSince(heartbeatAt) > leaseSeconds ? .down : .up
    }

    init(row: StoreRow) {
        self.init(
            name: row["name"], version: row["version"], startedAt: Date(timeIntervalSince1970: row["started_at"]),
            heartbeatAt: Date(timeIntervalSince1970: row["heartbeat_at"]),
            stoppedAt: (row["stopped_at"] as Double?).map(Date.init(timeIntervalSince1970:)), healthSeconds: row["health_seconds"],
            leaseSeconds: row["lease_seconds"], instance: row["instance"], place: row["place"])
    }
}

extension NodeRecord {
    /// Every node that ever ran on the store `db` belongs to, by name: also read without the
    /// store unlocked, by a migration's last step.
    static func all(in db: StoreDatabase) throws -> [NodeRecord] {
        try db.rows(sql: "SELECT * FROM nodes ORDER BY name").map(NodeRecord.init(row:))
    }
}

extension StoreReader {
    /// Every node that ever ran on this store, by name.
    public func nodes() throws -> [NodeRecord] {
        try NodeRecord.all(in: db)
    }

    /// The SQL condition (with two arguments: a node's name to leave out, and now) that holds
    /// for a modem status row `ms` whose modem is ready on another node that is up.
    static let readyOnLiveNode = """
        EXISTS (SELECT 1 FROM nodes n WHERE n.name = ms.node AND n.name <> ? AND n.stopped_at IS NULL
            AND n.heartbeat_at + n.lease_seconds >= ?) AND ms.state = 'ready'
        """
}
