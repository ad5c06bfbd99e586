public import Foundation

/// Where a webhook delivery stands: waiting for a 2xx, delivered, or failed for good.
public enum WebhookDeliveryState: String, Sendable, Hashable, Codable, CaseIterable {
    case pending
    case delivered
    case failed
}

/// One event's delivery to one webhook endpoint (table `webhook_deliveries`).
public struct WebhookDeliveryRecord: Sendable, Hashable {
    public var id: Int64
    /// The endpoint's URL, as configured.
    public var endpoint: String
    public var eventID: Int64
    /// The event's type, read with the row.
    public var eventType: String
    public var state: WebhookDeliveryState
    /// Requests made so far.
    public var attempts: Int
    /// When the first request was made, nil before it: retries end 24 hours after it.
    public var firstAttemptAt: Date?
    /// When the next request is due (while pending).
    public var nextAttemptAt: Date
    /// The last answer's HTTP status, nil when there was none (a timeout, a refused connection).
    public var lastStatus: Int?
    /// The last failure in a sentence, nil after a success.
    public var lastError: String?
    public var createdAt: Date
    public var deliveredAt: Date?
}

/// One webhook endpoint's progress through the journal (table `webhook_endpoints`).
public struct WebhookEndpointRecord: Sendable, Hashable {
    /// The endpoint's URL, as configured: its identity in the store.
    public var url: String
    /// The last journal event considered for it (delivered, failed, pending or not of its types).
    public var cursor: Int64
    /// When a 410 Gone disabled it, nil while it is enabled.
    public var disabledAt: Date?
    /// Why it was disabled, in a sentence.
    public var disabledReason: String?
    public var createdAt: Date
}

extension StoreReader {
    static let deliveryColumns = """
        d.id, d.endpoint, d.event_id, COALESCE(e.type, '') AS event_type, d.state, d.attempts, d.first_attempt_at,
        d.next_attempt_at, d.last_status, d.last_error, d.created_at, d.delivered_at
        """

    /// The endpoint's record, or nil before its first delivery.
    public func webhookEndpoint(url: String) throws -> WebhookEndpointRecord? {
        try db.row(sql: "SELECT * FROM webhook_endpoints WHERE url = ?", arguments: [url]).map(Self.endpoint(row:))
    }

    /// Every endpoint the store has a record of, by URL.
    public func webhookEndpoints() throws -> [WebhookEndpointRecord] {
        try db.rows(sql: "SELECT * FROM webhook_endpoints ORDER BY url").map(Self.endpoint(row:))
    }

    /// Deliveries, newest first.
    ///
    /// - Parameters:
    ///   - endpoint: Only this endpoint's, or nil for all.
    ///   - state: Only deliveries in this state, or nil for all.
    ///   - limit: At most this many.
    public func webhookDeliveries(endpoint: String? = nil, state: WebhookDeliveryState? = nil, limit: Int = 100) throws
        -> [WebhookDeliveryRecord]
    {
        var conditions = ["1"]
        var arguments: StoreArguments = []
        if let endpoint {
            conditions.append("d.endpoint = ?")
            arguments.append(contentsOf: [endpoint])
        }
        if let state {
            conditions.append("d.state = ?")
            arguments.append(contentsOf: [state.rawValue])
        }
        arguments.append(contentsOf: [max(limit, 0)])
        return try db.rows(
            sql: """
                SELECT \(Self.deliveryColumns) FROM webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY d.id DESC LIMIT ?
                """,
            arguments: arguments
        ).map(Self.delivery(row:))
    }

    /// One delivery, or nil when no delivery has this id.
    public func webhookDelivery(id: Int64) throws -> WebhookDeliveryRecord? {
        try db.row(
            sql: "SELECT \(Self.deliveryColumns) FROM webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id WHERE d.id = ?",
            arguments: [id]
        ).map(Self.delivery(row:))
    }

    /// The endpoint's pending delivery of the oldest event: the one its worker sends next.
    public func nextPendingDelivery(endpoint: String) throws -> WebhookDeliveryRecord? {
        try db.row(
            sql: """
                SELECT \(Self.deliveryColumns) FROM webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id
                WHERE d.endpoint = ? AND d.state = 'pending' ORDER BY d.event_id LIMIT 1
                """,
            arguments: [endpoint]
        ).map(Self.delivery(row:))
    }

    static func endpoint(row: StoreRow) -> WebhookEndpointRecord {
        WebhookEndpointRecord(
            url: row["url"], cursor: row["cursor"], disabledAt: (row["disabled_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            disabledReason: row["disabled_reason"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    static func delivery(row: StoreRow) -> WebhookDeliveryRecord {
        WebhookDeliveryRecord(
            id: row["id"], endpoint: row["endpoint"], eventID: row["event_id"], eventType: row["event_type"],
            state: WebhookDeliveryState(rawValue: row["state"]) ?? .failed, attempts: row["attempts"],
            firstAttemptAt: (row["first_attempt_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]), lastStatus: row["last_status"],
            lastError: row["last_error"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            deliveredAt: (row["delivered_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}
