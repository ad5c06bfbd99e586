extension PostgresSchema {
    /// `v11-node-instances` and `v11-webhook-leases` on PostgreSQL (``StoreSchema/registerNodeInstances(in:)`` says why).
    static let nodeInstances: [Migration] = [
        Migration("v11-node-instances", ["ALTER TABLE nodes ADD COLUMN instance TEXT", "ALTER TABLE nodes ADD COLUMN place TEXT"]),
        Migration(
            "v11-webhook-leases",
            ["ALTER TABLE webhook_endpoints ADD COLUMN node TEXT", "ALTER TABLE webhook_endpoints ADD COLUMN lease_until DOUBLE PRECISION"]),
    ]
}
