import GRDB

extension StoreSchema {
    /// The migrations of version 9 (docs/STORAGE.md). Registered after every earlier one.
    static func registerOutboxFailures(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-outbox-temporary-failures") { db in
            // The sender gives a row up after so many temporary failures of its own, or once it has
            // been failing for so long (`[outbox]`); `attempts` cannot say so, since it also counts
            // the claims that ended in modem trouble, which is not the number's fault. Both go back
            // to 0 and NULL when the row is sent, or queued again by hand.
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN temporary_failures INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN failing_since REAL")
        }
    }
}
