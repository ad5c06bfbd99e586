public import Foundation

/// What the daemon last knew about one modem, written by its supervisor and read by `smsgw status`.
public struct ModemStatusRecord: Sendable, Hashable, Codable {
    /// The modem's configured name.
    public var name: String
    /// A short state: `connecting`, `ready`, `recovering`, `waiting for device`, `wrong PIN`, `stopped`.
    public var state: ModemPhase
    /// Whether the port is open and the modem answers.
    public var connected: Bool
    /// Signal quality in percent, when known.
    public var signalPercent: Int?
    /// The network operator's name or code, when known.
    public var networkOperator: String?
    /// The last error, in a plain sentence; nil once the modem works again.
    public var lastError: String?
    /// SMS this modem submitted since the daemon started.
    public var sentCount: Int
    /// SMS this modem received since the daemon started.
    public var receivedCount: Int
    /// When the daemon last heard from the modem (a call it answered, an event it announced);
    /// the time the record was made when it never did.
    public var updatedAt: Date
    /// The node whose daemon drives the modem (nil when recorded before nodes were).
    public var node: String?
    /// When the modem last stopped being ready while its daemon runs: nil while it is ready, and
    /// when it was not ready since the daemon started. Only the running daemon knows it (the
    /// store keeps no such column), for this node's modems.
    public var leftReadyAt: Date?

    public init(
        name: String, state: ModemPhase, connected: Bool, signalPercent: Int? = nil, networkOperator: String? = nil,
        lastError: String? = nil, sentCount: Int = 0, receivedCount: Int = 0, updatedAt: Date = Date(), node: String? = nil,
        leftReadyAt: Date? = nil
    ) {
        self.name = name
        self.state = state
        self.connected = connected
        self.signalPercent = signalPercent
        self.networkOperator = networkOperator
        self.lastError = lastError
        self.sentCount = sentCount
        self.receivedCount = receivedCount
        self.updatedAt = updatedAt
        self.node = node
        self.leftReadyAt = leftReadyAt
    }

    enum CodingKeys: String, CodingKey {
        case name, state, connected, signalPercent, networkOperator, lastError, sentCount, receivedCount, updatedAt, node, leftReadyAt
    }

    // Written by hand so that absent values are null, not missing, as in every other JSON object
    // smsgw prints: a consumer sees the same keys whatever the modem knows.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(state, forKey: .state)
        try container.encode(connected, forKey: .connected)
        try container.encode(signalPercent, forKey: .signalPercent)
        try container.encode(networkOperator, forKey: .networkOperator)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(sentCount, forKey: .sentCount)
        try container.encode(receivedCount, forKey: .receivedCount)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(node, forKey: .node)
        try container.encode(leftReadyAt, forKey: .leftReadyAt)
    }
}

extension StoreTransaction {
    /// Inserts or replaces the status of the modem named in `record`.
    public func saveModemStatus(_ record: ModemStatusRecord) throws {
        try db.execute(
            sql: """
                INSERT INTO modem_status (name, state, connected, signal_percent, operator, last_error,
                    sent_count, received_count, updated_at, node)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET state = excluded.state, connected = excluded.connected,
                    signal_percent = excluded.signal_percent, operator = excluded.operator,
                    last_error = excluded.last_error, sent_count = excluded.sent_count,
                    received_count = excluded.received_count, updated_at = excluded.updated_at, node = excluded.node
                """,
            arguments: [
                record.name, record.state.rawValue, record.connected, record.signalPercent, record.networkOperator,
                record.lastError, record.sentCount, record.receivedCount, record.updatedAt.timeIntervalSince1970,
                record.node,
            ]
        )
    }

    /// Forgets the modem statuses of `node` and those that name no node (the daemon calls it at
    /// startup so its removed modems disappear); other nodes' modems stay. Nil forgets every one.
    public func clearModemStatuses(node: String? = nil) throws {
        guard let node else { return try db.execute(sql: "DELETE FROM modem_status") }
        try db.execute(sql: "DELETE FROM modem_status WHERE node = ? OR node IS NULL", arguments: [node])
    }
}

extension StoreReader {
    /// Every modem's last known status, by name.
    public func modemStatuses() throws -> [ModemStatusRecord] {
        try db.rows(sql: "SELECT * FROM modem_status ORDER BY name").map { row in
            ModemStatusRecord(
                // Only the daemon writes the state; a spelling this version lacks (a newer
                // daemon's) shows as stopped rather than failing the whole status.
                name: row["name"], state: ModemPhase(rawValue: row["state"]) ?? .stopped, connected: row["connected"],
                signalPercent: row["signal_percent"], networkOperator: row["operator"], lastError: row["last_error"],
                sentCount: row["sent_count"], receivedCount: row["received_count"],
                updatedAt: Date(timeIntervalSince1970: row["updated_at"]), node: row["node"]
            )
        }
    }
}
