import GRDB

extension StoreSchema {
    /// The migrations of version 8 after the nodes (docs/STORAGE.md). Registered after every
    /// earlier one.
    static func registerVersion8(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-outbox-by-message") { db in
            // A message's outbox rows by its log id: the API's message detail, a replayed
            // idempotency key and the cascade when old log rows are pruned read them, and without
            // this index each of those scanned the whole outbox, which grows with every SMS.
            try db.execute(sql: "CREATE INDEX outbox_message ON outbox(message_id)")
        }
    }
}
