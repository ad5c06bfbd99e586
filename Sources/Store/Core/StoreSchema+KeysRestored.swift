import GRDB

extension StoreSchema {
    /// The migration that records a contact's keys coming back from a backup (docs/STORAGE.md,
    /// `v12-contact-keys-restored`). Registered after every earlier one.
    static func registerKeysRestored(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12-contact-keys-restored") { db in
            // When a restore put this contact's session back to the backup's: the keys went back
            // in time, so what this side seals reuses positions the replaced store may have used,
            // until a resync with the contact completes (which sets it back to NULL). A message
            // that opens does not clear it. NULL for every contact whose keys were not restored.
            try db.execute(sql: "ALTER TABLE contacts ADD COLUMN keys_restored_at REAL")
        }
    }
}
