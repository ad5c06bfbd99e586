import GRDB

extension StoreSchema {
    /// The migration behind the count of sent SMS never confirmed (docs/STORAGE.md,
    /// `v13-outbox-unconfirmed`). Registered after every earlier one.
    static func registerUnconfirmed(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-outbox-unconfirmed") { db in
            // `confirmable`: whether anything could confirm the SMS when it went out (a delivery
            // report asked for, or a contact whose gateway acknowledges), recorded by the send, so
            // a later change of configuration does not rewrite what was true then; rows sent before
            // count as they did. `checked_at`: when an operator marked it checked with the contact.
            // The partial index holds only the rows the count reads, so the console's banners,
            // which ask every few seconds, read a few index entries, not every SMS still `sent`.
            // `state` leads though it is constant: without statistics SQLite's planner rates an
            // equality above a range and took `outbox_due (state)` over an index on `sent_at` alone.
            try db.execute(
                sql: """
                    ALTER TABLE outbox ADD COLUMN confirmable INTEGER NOT NULL DEFAULT 1 CHECK (confirmable IN (0, 1));
                    ALTER TABLE outbox ADD COLUMN checked_at REAL;
                    CREATE INDEX outbox_unconfirmed ON outbox(state, sent_at)
                        WHERE state = 'sent' AND kind = 'text' AND acknowledged_at IS NULL AND checked_at IS NULL AND confirmable = 1;
                    """)
        }
    }
}
