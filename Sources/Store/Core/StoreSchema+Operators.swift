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

        migrator.registerMigration("v6-console-sessions-and-audit") { db in
            // A console session is found by the SHA-256 of its random token (the cookie); the
            // token itself is never stored. The audit list says who did what, never a secret or
            // a message text.
            try db.execute(
                sql: """
                    CREATE TABLE console_sessions (
                        token_hash BLOB PRIMARY KEY NOT NULL,
                        operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        last_seen_at REAL NOT NULL
                    ) STRICT;
                    CREATE INDEX console_sessions_operator ON console_sessions(operator_id);
                    CREATE TABLE audit_events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        time REAL NOT NULL,
                        actor_kind TEXT NOT NULL CHECK (actor_kind IN ('operator', 'token', 'command-line')),
                        actor_name TEXT,
                        action TEXT NOT NULL,
                        target TEXT,
                        outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused', 'failed')),
                        address TEXT
                    ) STRICT;
                    """)
        }
    }
}
