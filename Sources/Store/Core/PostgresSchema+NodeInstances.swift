extension PostgresSchema {
    /// `v9-node-instances` on PostgreSQL (``StoreSchema/registerNodeInstances(in:)`` says why).
    static let nodeInstances: [Migration] = [
        Migration("v9-node-instances", ["ALTER TABLE nodes ADD COLUMN instance TEXT", "ALTER TABLE nodes ADD COLUMN place TEXT"])
    ]
}
