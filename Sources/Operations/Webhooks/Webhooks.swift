public import Foundation
public import Store

/// Webhook delivery's rules on the store: which event an endpoint gets next, what an answer does
/// to the delivery, and the listing and redelivery the front ends call. The daemon's dispatcher
/// does only the HTTP.
///
/// Each endpoint gets the journal's events of its types in order: the next waits until the one
/// before was delivered or failed for good. A delivery is pending until a 2xx (delivered) or until
/// its retries ran out (failed); a 410 Gone disables the endpoint, its delivery still pending.
/// Progress commits only after the answer, so a crash repeats a request (same `webhook-id`),
/// never loses one.
public enum Webhooks {
    /// What an endpoint's worker does next.
    public enum Work: Sendable, Equatable {
        /// Send this request now.
        case deliver(PreparedDelivery)
        /// The next delivery is due at this time (a retry's backoff).
        case wait(until: Date)
        /// Nothing to send: every event so far is handled.
        case idle
        /// A 410 disabled the endpoint; a redelivery enables it again.
        case disabled(reason: String)
        /// Another node holds the endpoint's lease and delivers its events (``lease(_:for:in:now:)``).
        case elsewhere(node: String)
    }

    /// A request ready to send: its `webhook-id` (the same on every retry) and its JSON body.
    public struct PreparedDelivery: Sendable, Equatable {
        public var deliveryID: Int64
        public var eventID: Int64
        public var eventType: String
        public var webhookID: String
        public var body: Data
        /// This request's number, from 1.
        public var attempt: Int
    }

    /// What became of one request.
    public enum Outcome: Sendable, Equatable {
        /// The receiver answered with this HTTP status.
        case status(Int)
        /// No answer: a timeout or a connection error, in a sentence.
        case noAnswer(String)
    }

    /// The `webhook-id` of an event's requests: stable across retries, so receivers deduplicate.
    public static func webhookID(ofEvent id: Int64) -> String { "evt_\(id)" }

    /// Gives each endpoint the store doesn't know yet its record at the journal's current end, in
    /// the caller's transaction: the daemon does it before its services start, so an endpoint gets
    /// every event from its daemon's start on (a modem's first `modem.up` included).
    public static func register(_ endpoints: [WebhookEndpoint], in tx: StoreTransaction, now: Date) throws {
        for endpoint in endpoints { _ = try tx.ensureWebhookEndpoint(url: endpoint.key, now: now) }
    }

    /// The endpoint's next work, in the caller's transaction: its oldest pending delivery, or else a
    /// new delivery of the next journal event of its types (the cursor skipping the others).
    ///
    /// With `node` (a daemon that is one node of several), only while that node holds the
    /// endpoint's lease, which this takes or renews; ``Work/elsewhere(node:)`` while another does.
    public static func next(for endpoint: WebhookEndpoint, node: GatewayNode? = nil, in tx: StoreTransaction, now: Date) throws -> Work {
        do {
            let record = try tx.ensureWebhookEndpoint(url: endpoint.key, now: now)
            if let node, let holder = try lease(endpoint, for: node, in: tx, now: now) { return .elsewhere(node: holder) }
            if record.disabledAt != nil {
                return .disabled(reason: record.disabledReason ?? "The endpoint was disabled.")
            }
            guard
                let delivery = try tx.nextPendingDelivery(endpoint: endpoint.key)
                    ?? nextDelivery(endpoint, from: record.cursor, in: tx, now: now)
            else { return .idle }
            // A millisecond's slack: times go through the store as seconds since 1970 in a double.
            if delivery.nextAttemptAt.timeIntervalSince(now) > 0.001 { return .wait(until: delivery.nextAttemptAt) }
            guard let stored = try tx.event(id: delivery.eventID) else {
                var lost = delivery
                lost.state = .failed
                lost.lastError = "The event is no longer in the journal."
                try tx.saveWebhookDelivery(lost, now: now)
                return .wait(until: now)
            }
            var event = JournalEvent(stored)
            if endpoint.includeText { event = try event.includingText(from: tx) }
            return .deliver(
                PreparedDelivery(
                    deliveryID: delivery.id, eventID: event.id, eventType: event.type, webhookID: webhookID(ofEvent: event.id),
                    body: try OperationsJSON.encoder.encode(event), attempt: delivery.attempts + 1))
        }
    }

    /// Takes or renews `node`'s lease on the endpoint, in the caller's transaction: for the node's
    /// lease (its claims' rule: a node silent for that long is down) plus one request's timeout,
    /// renewed each time its worker looks for work. Nil when the node holds it; the holder's name
    /// otherwise. A worker checks it again before it records an answer: one whose lease passed to
    /// another node meanwhile (it hung past its lease) leaves the delivery to that node.
    public static func lease(_ endpoint: WebhookEndpoint, for node: GatewayNode, in tx: StoreTransaction, now: Date) throws -> String? {
        let until = now.addingTimeInterval(node.leaseSeconds + endpoint.timeoutSeconds)
        return try tx.takeWebhookLease(url: endpoint.key, node: node.name, until: until, now: now)
    }

    /// A new pending delivery of the first event after `cursor` that the endpoint takes, moving
    /// its cursor past the events it does not take; nil when there is none yet.
    static func nextDelivery(_ endpoint: WebhookEndpoint, from cursor: Int64, in tx: StoreTransaction, now: Date) throws
        -> WebhookDeliveryRecord?
    {
        let types = Set(endpoint.events.map(\.rawValue))
        var cursor = cursor
        defer { try? tx.advanceWebhookCursor(url: endpoint.key, to: cursor) }
        while true {
            let batch = try tx.events(after: cursor, limit: 500)
            guard let last = batch.last else { return nil }
            if let event = batch.first(where: { types.contains($0.type) }) {
                cursor = event.id
                return try tx.insertWebhookDelivery(endpoint: endpoint.key, eventID: event.id, now: now)
            }
            cursor = last.id
        }
    }

    /// Records the answer to a delivery's request, in the caller's transaction, and returns the
    /// delivery as it now stands.
    ///
    /// A 2xx delivers it; a 410 disables the endpoint and leaves it pending; any other answer, or
    /// none, schedules a retry by `endpoint.retry`, or fails it once the retries ran out.
    @discardableResult
    public static func record(
        _ outcome: Outcome, of deliveryID: Int64, to endpoint: WebhookEndpoint, in tx: StoreTransaction, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> WebhookDelivery {
        do {
            guard var delivery = try tx.webhookDelivery(id: deliveryID) else {
                throw StoreError.notFound(.webhookDelivery(deliveryID))
            }
            delivery.attempts += 1
            let first = delivery.firstAttemptAt ?? now
            delivery.firstAttemptAt = first
            switch outcome {
            case .status(let status) where (200..<300).contains(status):
                delivery.state = .delivered
                delivery.deliveredAt = now
                delivery.lastStatus = status
                delivery.lastError = nil
            case .status(410):
                delivery.lastStatus = 410
                delivery.lastError = "The endpoint answered 410 Gone, so it was disabled; redeliver to enable it again."
                try tx.setWebhookEndpointDisabled(url: endpoint.key, reason: delivery.lastError, now: now)
            case .status(let status):
                delivery.lastStatus = status
                delivery.lastError = "The endpoint answered HTTP \(status)."
                retryOrFail(&delivery, first: first, endpoint: endpoint, now: now, using: &rng)
            case .noAnswer(let reason):
                delivery.lastStatus = nil
                delivery.lastError = reason
                retryOrFail(&delivery, first: first, endpoint: endpoint, now: now, using: &rng)
            }
            try tx.saveWebhookDelivery(delivery, now: now)
            // As stored: the times a later `next` compares are the ones read back.
            return WebhookDelivery(try tx.webhookDelivery(id: deliveryID) ?? delivery)
        }
    }

    private static func retryOrFail(
        _ delivery: inout WebhookDeliveryRecord, first: Date, endpoint: WebhookEndpoint, now: Date,
        using rng: inout some RandomNumberGenerator
    ) {
        let next = now.addingTimeInterval(endpoint.retry.delay(beforeRetry: delivery.attempts, using: &rng))
        if next.timeIntervalSince(first) > endpoint.retry.giveUpAfter {
            delivery.state = .failed
            delivery.lastError = (delivery.lastError ?? "") + " Retried for \(Int(endpoint.retry.giveUpAfter / 3600)) hours; given up."
        } else {
            delivery.nextAttemptAt = next
        }
    }
}
