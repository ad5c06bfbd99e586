extension StoreReader {
    /// Webhook deliveries counted by state, by whether a request was made, and by whether their
    /// endpoint is disabled (a 410 Gone): what the metrics call each delivery's outcome.
    public func webhookDeliveryCounts() throws -> [(state: WebhookDeliveryState, attempted: Bool, endpointDisabled: Bool, count: Int)] {
        try db.rows(
            sql: """
                SELECT d.state, d.attempts > 0 AS attempted, e.disabled_at IS NOT NULL AS disabled, COUNT(*) AS n
                FROM webhook_deliveries d JOIN webhook_endpoints e ON e.url = d.endpoint
                GROUP BY d.state, attempted, disabled
                """
        ).compactMap { row in
            guard let state = WebhookDeliveryState(rawValue: row["state"] as String) else { return nil }
            return (state, row["attempted"], row["disabled"], row["n"])
        }
    }

    /// Incoming messages that did not open (status `rejected`), counted by the error sentence the
    /// receive path recorded with each (nil when it recorded none).
    public func rejectedMessageErrors() throws -> [(error: String?, count: Int)] {
        try db.rows(
            sql: "SELECT error, COUNT(*) AS n FROM messages WHERE direction = 'in' AND status = 'rejected' GROUP BY error"
        ).map { row in (row["error"], row["n"]) }
    }
}
