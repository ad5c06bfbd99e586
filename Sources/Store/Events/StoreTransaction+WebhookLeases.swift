public import Foundation

extension StoreTransaction {
    /// Takes or renews `node`'s lease on the endpoint's deliveries until `until`: only the
    /// holder sends the endpoint's events, so two nodes never send one event at once nor break
    /// its order. The lease is taken when no node holds it, when this node does, when it has
    /// ended, or when its holder is down (no heartbeat within its lease) or stopped.
    ///
    /// - Returns: Nil when `node` holds the lease now; the holder's name otherwise.
    public func takeWebhookLease(url: String, node: String, until: Date, now: Date) throws -> String? {
        try db.execute(
            sql: """
                UPDATE webhook_endpoints SET node = ?1, lease_until = ?2
                WHERE url = ?3 AND (node IS NULL OR node = ?1 OR lease_until < ?4 OR node IN (
                    SELECT name FROM nodes WHERE stopped_at IS NOT NULL OR heartbeat_at + lease_seconds < ?4))
                """,
            arguments: [node, until.timeIntervalSince1970, url, now.timeIntervalSince1970])
        if db.changesCount > 0 { return nil }
        guard let holder = try db.value(String.self, sql: "SELECT node FROM webhook_endpoints WHERE url = ?", arguments: [url]) else {
            throw StoreError.notFound(.webhookEndpoint(url))
        }
        return holder
    }
}
