import GRDB

extension StoreSchema {
    /// The migrations of version 7 (docs/STORAGE.md). Registered after every earlier one.
    static func registerVersion7(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7-outbox-submitting-at") { db in
            // When a row was first handed to a modem: the message's `submitting` time, which the
            // log's own statuses (queued, then sent) do not record. NULL for rows never claimed,
            // and for rows claimed before this migration.
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN submitting_at REAL")
        }
    }
}
