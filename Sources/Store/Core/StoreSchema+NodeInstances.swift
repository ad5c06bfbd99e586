import GRDB

extension StoreSchema {
    /// The migrations that keep one daemon to a node name and one node to each webhook endpoint
    /// (docs/STORAGE.md, `v11-node-instances`, `v11-webhook-leases`). Registered after every earlier one.
    static func registerNodeInstances(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-node-instances") { db in
            // The run of `smsgw serve` that holds a node's row: a random id each daemon makes when
            // it starts and records with every heartbeat. A second daemon started with the same
            // `[node] name` finds the row held by another run whose heartbeat is within its lease
            // and refuses to start, rather than renewing the first one's claims as its own. NULL
            // for a row written before this migration (any run may take it). `place` is where the
            // run holds its data directory's lock (host and directory): a run that holds the lock
            // at the same place proves the earlier one ended (a restart after a crash).
            try db.execute(sql: "ALTER TABLE nodes ADD COLUMN instance TEXT; ALTER TABLE nodes ADD COLUMN place TEXT")
        }
        migrator.registerMigration("v11-webhook-leases") { db in
            // The node that delivers an endpoint's events and until when its lease holds: each
            // node runs a worker per endpoint, and only the lease's holder sends, so one event is
            // not sent by two nodes at once and the endpoint's order holds. The holder renews it
            // each time it looks for work; another node takes it once it has ended, or once the
            // holder is down or stopped. NULL until a node takes it.
            try db.execute(
                sql: "ALTER TABLE webhook_endpoints ADD COLUMN node TEXT; ALTER TABLE webhook_endpoints ADD COLUMN lease_until REAL")
        }
    }
}
