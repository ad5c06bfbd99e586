public import Foundation
public import Store

/// One event's delivery to one endpoint as the front ends show it.
///
/// Its JSON has every key, absent values `null`: `id, endpoint, event, type, webhookId, state,
/// attempts, lastStatus, lastError, createdAt, nextAttemptAt, deliveredAt`.
public struct WebhookDelivery: Sendable, Equatable, Encodable {
    public var id: Int64
    public var endpoint: String
    /// The journal event's id.
    public var event: Int64
    public var type: String
    /// The `webhook-id` header its requests carry.
    public var webhookID: String
    public var state: WebhookDeliveryState
    public var attempts: Int
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: Date
    /// When the next request is due, while pending.
    public var nextAttemptAt: Date?
    public var deliveredAt: Date?

    public init(_ record: WebhookDeliveryRecord) {
        id = record.id
        endpoint = record.endpoint
        event = record.eventID
        type = record.eventType
        webhookID = Webhooks.webhookID(ofEvent: record.eventID)
        state = record.state
        attempts = record.attempts
        lastStatus = record.lastStatus
        lastError = record.lastError
        createdAt = record.createdAt
        nextAttemptAt = record.state == .pending ? record.nextAttemptAt : nil
        deliveredAt = record.deliveredAt
    }

    enum CodingKeys: String, CodingKey {
        case id, endpoint, event, type
        case webhookID = "webhookId"
        case state, attempts, lastStatus, lastError, createdAt, nextAttemptAt,
            deliveredAt
    }

    // By hand so that absent values are null, not missing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encode(event, forKey: .event)
        try container.encode(type, forKey: .type)
        try container.encode(webhookID, forKey: .webhookID)
        try container.encode(state, forKey: .state)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(lastStatus, forKey: .lastStatus)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(nextAttemptAt, forKey: .nextAttemptAt)
        try container.encode(deliveredAt, forKey: .deliveredAt)
    }
}
