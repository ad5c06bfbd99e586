import GRDB

extension StoreSchema {
    /// The migration of several gateway nodes on one store (docs/STORAGE.md, `v8-nodes`).
    /// Registered after every earlier one.
    static func registerNodes(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-nodes") { db in
            // One row per `smsgw serve` that ever ran on this store, by its `[node] name`: when it
            // started, its last heartbeat (every `health_seconds`) and how long after it the node
            // counts as down (`lease_seconds`); `stopped_at` once it stopped cleanly (NULL while it
            // runs). An outbox row a node claimed names the node and the time its lease ends; the
            // node renews the lease with each heartbeat, and once it has passed another node may
            // send the row again (the same stored ciphertext). A modem's status row names the node
            // that drives it. Rows claimed or written before this migration name no node.
            try db.execute(
                sql: """
                    CREATE TABLE nodes (
                        name TEXT PRIMARY KEY NOT NULL,
                        version TEXT NOT NULL,
                        started_at REAL NOT NULL,
                        heartbeat_at REAL NOT NULL,
                        stopped_at REAL,
                        health_seconds REAL NOT NULL,
                        lease_seconds REAL NOT NULL
                    ) STRICT;
                    ALTER TABLE outbox ADD COLUMN node TEXT;
                    ALTER TABLE outbox ADD COLUMN lease_until REAL;
                    CREATE INDEX outbox_claims ON outbox(state, node);
                    ALTER TABLE modem_status ADD COLUMN node TEXT;
                    """)
        }
    }
}
