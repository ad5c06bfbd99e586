import GRDB

extension StoreSchema {
    /// The migration that tells two daemons of one node name apart (docs/STORAGE.md,
    /// `v9-node-instances`). Registered after every earlier one.
    static func registerNodeInstances(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-node-instances") { db in
            // The run of `smsgw serve` that holds a node's row: a random id each daemon makes when
            // it starts and records with every heartbeat. A second daemon started with the same
            // `[node] name` finds the row held by another run whose heartbeat is within its lease
            // and refuses to start, rather than renewing the first one's claims as its own. NULL
            // for a row written before this migration (any run may take it). `place` is where the
            // run holds its data directory's lock (host and directory): a run that holds the lock
            // at the same place proves the earlier one ended (a restart after a crash).
            try db.execute(sql: "ALTER TABLE nodes ADD COLUMN instance TEXT; ALTER TABLE nodes ADD COLUMN place TEXT")
        }
    }
}
