public import Foundation
public import Store

/// One webhook endpoint as `webhook list` shows it: its settings (never a secret) and progress.
///
/// Its JSON has every key: `url, configured, source, events, includeText, secrets, state,
/// disabledReason, pending, waiting, delivered, failed, lastDeliveredAt`.
public struct WebhookStatus: Sendable, Equatable, Codable {
    /// Whose configuration ``WebhookStatus/configured`` is judged by.
    public enum Source: String, Sendable, Hashable, Codable {
        /// The running daemon's: its file and environment, as it started.
        case daemon
        /// The configuration the asking process read (no daemon runs).
        case configuration
    }

    public var url: String
    /// Whether the configuration names it (an endpoint removed from it keeps its history).
    public var configured: Bool
    /// Whose configuration that is; nil when the caller did not say.
    public var source: Source?
    public var events: [String]
    public var includeText: Bool
    /// How many secrets sign its requests (2 during a rotation).
    public var secrets: Int
    /// `active`, `disabled` (a 410), or `new` before the daemon first ran with it.
    public var state: String
    public var disabledReason: String?
    public var pending: Int
    /// Journal events of its types after its cursor: those still to be given a delivery (behind
    /// a retrying one, or not yet picked up). 0 for an endpoint the configuration no longer names.
    public var waiting: Int
    public var delivered: Int
    public var failed: Int
    public var lastDeliveredAt: Date?

    enum CodingKeys: String, CodingKey {
        case url, configured, source, events, includeText, secrets, state, disabledReason, pending, waiting, delivered, failed,
            lastDeliveredAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(configured, forKey: .configured)
        try container.encode(source, forKey: .source)
        try container.encode(events, forKey: .events)
        try container.encode(includeText, forKey: .includeText)
        try container.encode(secrets, forKey: .secrets)
        try container.encode(state, forKey: .state)
        try container.encode(disabledReason, forKey: .disabledReason)
        try container.encode(pending, forKey: .pending)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(delivered, forKey: .delivered)
        try container.encode(failed, forKey: .failed)
        try container.encode(lastDeliveredAt, forKey: .lastDeliveredAt)
    }
}

extension Webhooks {
    /// The configured endpoints, then those the store remembers that the configuration no longer
    /// names, each with its progress.
    public static func list(configured endpoints: [WebhookEndpoint], store: UnlockedStore) throws -> [WebhookStatus] {
        try store.read { try list(configured: endpoints, reader: $0) }
    }

    /// ``list(configured:store:)`` in the caller's read (the metrics page reads one snapshot).
    public static func list(configured endpoints: [WebhookEndpoint], reader: StoreReader) throws -> [WebhookStatus] {
        var statuses: [WebhookStatus] = []
        var seen: Set<String> = []
        for endpoint in endpoints {
            seen.insert(endpoint.key)
            statuses.append(
                try status(url: endpoint.key, endpoint: endpoint, record: try reader.webhookEndpoint(url: endpoint.key), reader: reader))
        }
        for record in try reader.webhookEndpoints() where !seen.contains(record.url) {
            statuses.append(try status(url: record.url, endpoint: nil, record: record, reader: reader))
        }
        return statuses
    }

    private static func status(url: String, endpoint: WebhookEndpoint?, record: WebhookEndpointRecord?, reader: StoreReader) throws
        -> WebhookStatus
    {
        let summary = try reader.webhookDeliverySummary(endpoint: url)
        let state = record == nil ? "new" : record?.disabledAt == nil ? "active" : "disabled"
        // A new endpoint starts at the journal's end when the daemon first runs with it.
        let waiting = try record.map { record in
            try reader.eventCount(after: record.cursor, types: Set(endpoint?.events.map(\.rawValue) ?? []))
        }
        return WebhookStatus(
            url: url, configured: endpoint != nil, events: endpoint?.events.map(\.rawValue).sorted() ?? [],
            includeText: endpoint?.includeText ?? false, secrets: endpoint?.secrets.count ?? 0, state: state,
            disabledReason: record?.disabledReason, pending: summary.counts[.pending] ?? 0, waiting: waiting ?? 0,
            delivered: summary.counts[.delivered] ?? 0,
            failed: summary.counts[.failed] ?? 0, lastDeliveredAt: summary.lastDeliveredAt)
    }

    /// The newest deliveries (only the failed ones, `failed`), newest first.
    public static func deliveries(failed: Bool = false, limit: Int = 100, store: UnlockedStore) throws -> [WebhookDelivery] {
        try store.read { try $0.webhookDeliveries(state: failed ? .failed : nil, limit: limit).map(WebhookDelivery.init) }
    }

    /// Makes a delivery pending and due at once, with a fresh 24 hours of retries, and enables its
    /// endpoint if a 410 had disabled it. The running daemon sends it next (with the same
    /// `webhook-id`), before the endpoint's later events. Audited as `webhook-redelivered` by
    /// `actor` in the same transaction.
    ///
    /// - Throws: ``Store/StoreError/notFound(_:)`` when no delivery has the id.
    public static func redeliver(
        _ id: Int64, by actor: AuditActor = .commandLine, address: String? = nil, store: UnlockedStore, now: Date
    ) throws -> WebhookDelivery {
        try store.write { tx in
            guard var delivery = try tx.webhookDelivery(id: id) else { throw StoreError.notFound(.webhookDelivery(id)) }
            delivery.state = .pending
            delivery.firstAttemptAt = nil
            delivery.nextAttemptAt = now
            delivery.deliveredAt = nil
            try tx.saveWebhookDelivery(delivery, now: now)
            try tx.setWebhookEndpointDisabled(url: delivery.endpoint, reason: nil, now: now)
            try Audit.record(.webhookRedelivered, by: actor, target: "delivery \(id)", address: address, in: tx, now: now)
            return WebhookDelivery(delivery)
        }
    }
}
