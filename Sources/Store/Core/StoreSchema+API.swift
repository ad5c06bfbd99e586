import GRDB

extension StoreSchema {
    /// The migrations of the HTTP API: its bearer tokens and the idempotency keys of its sends.
    /// Registered after every earlier one.
    static func registerAPI(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-api-tokens") { db in
            // Only a SHA-256 of each token is kept: the token itself is shown once, at creation.
            // Scopes are a sorted, comma-separated list of send, read and admin.
            try db.execute(
                sql: """
                    CREATE TABLE api_tokens (
                        name TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
                        token_hash BLOB NOT NULL UNIQUE,
                        scopes TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        expires_at REAL,
                        last_used_at REAL
                    ) STRICT
                    """)
        }

        migrator.registerMigration("v6-idempotency-keys") { db in
            // An API send's key, a SHA-256 of what it asked for and the message it queued, written
            // in the transaction that queued it; pruning the message drops its key.
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_keys (
                        key TEXT PRIMARY KEY NOT NULL,
                        request_hash BLOB NOT NULL,
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL
                    ) STRICT;
                    CREATE INDEX idempotency_keys_message ON idempotency_keys(message_id);
                    """)
        }
    }
}
