import GRDB

extension StoreSchema {
    /// The credential vault's tables (docs/VAULT.md). Registered after every earlier migration.
    ///
    /// Nothing of an item is in the clear: each table holds a random identifier and one AES-GCM
    /// blob under the data key (docs/STORAGE.md); titles are compared after decryption, inside the
    /// writing transaction, so not even a hash of a title is stored.
    static func registerVault(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-vault") { db in
            // vault_items: one row per item, its fields sealed together. vault_history: an item's
            // earlier passwords, bounded per item, deleted with the item. vault_events: the vault's
            // event log, each event sealed (the item it names is inside the blob); `seq` orders it.
            try db.execute(
                sql: """
                    CREATE TABLE vault_items (
                        id TEXT PRIMARY KEY NOT NULL,
                        body BLOB NOT NULL
                    ) STRICT;
                    CREATE TABLE vault_history (
                        id TEXT PRIMARY KEY NOT NULL,
                        item_id TEXT NOT NULL REFERENCES vault_items(id) ON DELETE CASCADE,
                        body BLOB NOT NULL
                    ) STRICT;
                    CREATE INDEX vault_history_item ON vault_history(item_id);
                    CREATE TABLE vault_events (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        body BLOB NOT NULL
                    ) STRICT;
                    """)
        }
    }
}

extension StoreSchema {
    /// The parts of shared vault items received from contacts and waiting for the rest of their
    /// record (docs/PROTOCOL.md §13.2). Each row is one AES-GCM blob, like the items: the contact,
    /// the share, the part's index and its segment are all inside it.
    static func registerVaultShareParts(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-vault-share-parts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE vault_parts (
                        id TEXT PRIMARY KEY NOT NULL,
                        body BLOB NOT NULL
                    ) STRICT;
                    """)
        }
    }
}
