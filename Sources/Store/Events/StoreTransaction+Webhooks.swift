public import Foundation

extension StoreTransaction {
    /// The endpoint's record, created at the journal's current end when it has none: an endpoint
    /// gets the events from the first time a daemon runs with it, not the whole history.
    public func ensureWebhookEndpoint(url: String, now: Date) throws -> WebhookEndpointRecord {
        if let existing = try webhookEndpoint(url: url) { return existing }
        try db.execute(
            sql: "INSERT INTO webhook_endpoints (url, cursor, created_at) VALUES (?, ?, ?)",
            arguments: [url, try latestEventID(), now.timeIntervalSince1970])
        guard let created = try webhookEndpoint(url: url) else { throw StoreError.notFound(.webhookEndpoint(url)) }
        return created
    }

    /// Moves the endpoint's cursor forward to `cursor` (never back).
    public func advanceWebhookCursor(url: String, to cursor: Int64) throws {
        try db.execute(sql: "UPDATE webhook_endpoints SET cursor = ?1 WHERE url = ?2 AND cursor < ?1", arguments: [cursor, url])
    }

    /// Disables the endpoint (a 410 Gone), with the reason in a sentence; nil enables it again.
    public func setWebhookEndpointDisabled(url: String, reason: String?, now: Date) throws {
        try db.execute(
            sql: "UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ? WHERE url = ?",
            arguments: [reason == nil ? nil : now.timeIntervalSince1970, reason, url])
        if db.changesCount == 0 { throw StoreError.notFound(.webhookEndpoint(url)) }
    }

    /// Adds a pending delivery of the event to the endpoint, due at once, and returns it.
    public func insertWebhookDelivery(endpoint: String, eventID: Int64, now: Date) throws -> WebhookDeliveryRecord {
        let time = now.timeIntervalSince1970
        let id = try db.insert(
            sql: """
                INSERT INTO webhook_deliveries (endpoint, event_id, state, next_attempt_at, created_at, updated_at)
                VALUES (?, ?, 'pending', ?, ?, ?)
                RETURNING id
                """,
            arguments: [endpoint, eventID, time, time, time])
        guard let delivery = try webhookDelivery(id: id) else {
            throw StoreError.notFound(.webhookDelivery(id))
        }
        return delivery
    }

    /// Writes back a delivery's state, attempts, times and last answer.
    public func saveWebhookDelivery(_ delivery: WebhookDeliveryRecord, now: Date) throws {
        try db.execute(
            sql: """
                UPDATE webhook_deliveries SET state = ?, attempts = ?, first_attempt_at = ?, next_attempt_at = ?,
                    last_status = ?, last_error = ?, delivered_at = ?, updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                delivery.state.rawValue, delivery.attempts, delivery.firstAttemptAt?.timeIntervalSince1970,
                delivery.nextAttemptAt.timeIntervalSince1970, delivery.lastStatus, delivery.lastError,
                delivery.deliveredAt?.timeIntervalSince1970, now.timeIntervalSince1970, delivery.id,
            ])
        if db.changesCount == 0 { throw StoreError.notFound(.webhookDelivery(delivery.id)) }
    }
}

extension StoreReader {
    /// How many of the endpoint's deliveries are in each state, and when the last one succeeded.
    public func webhookDeliverySummary(endpoint: String) throws -> (counts: [WebhookDeliveryState: Int], lastDeliveredAt: Date?) {
        var counts: [WebhookDeliveryState: Int] = [:]
        for row in try db.rows(
            sql: "SELECT state, COUNT(*) AS count FROM webhook_deliveries WHERE endpoint = ? GROUP BY state", arguments: [endpoint])
        {
            if let state = WebhookDeliveryState(rawValue: row["state"]) { counts[state] = row["count"] }
        }
        let last = try db.value(
            Double.self, sql: "SELECT MAX(delivered_at) FROM webhook_deliveries WHERE endpoint = ?", arguments: [endpoint])
        return (counts, last.map(Date.init(timeIntervalSince1970:)))
    }
}
