import GRDB

extension StoreSchema {
    /// The console's operators (docs/STORAGE.md): separate from the account, never holding the
    /// data passphrase. The verifier and the second factor are sealed under the data key.
    static func registerOperators(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-operators") { db in
            try db.execute(
                sql: """
                    CREATE TABLE operators (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        name_key TEXT NOT NULL UNIQUE,
                        role TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
                        password BLOB NOT NULL,
                        second_factor BLOB,
                        second_factor_state BLOB,
                        failed_attempts INTEGER NOT NULL DEFAULT 0,
                        locked_until REAL,
                        last_login_at REAL,
                        created_at REAL NOT NULL,
                        updated_at REAL NOT NULL
                    ) STRICT
                    """)
        }
    }
}
