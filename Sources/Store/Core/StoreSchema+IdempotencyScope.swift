import GRDB

extension StoreSchema {
    /// `v9-idempotency-keys-per-token` (docs/STORAGE.md): an idempotency key belongs to the API
    /// token that used it, so two clients choosing the same key each queue their own message.
    /// Registered after every earlier one.
    static func registerIdempotencyScope(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-idempotency-keys-per-token") { db in
            // `token_id` is the SHA-256 that api_tokens keeps of the token (unique per token and
            // never reused, unlike a name), empty for keys saved before this migration and for a
            // send without a token. SQLite cannot change a primary key in place, so the table is
            // copied (the token last, as PostgreSQL's ALTER TABLE puts it); every existing row keeps
            // its key, hash and message under the empty token.
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_keys_scoped (
                        key TEXT NOT NULL,
                        request_hash BLOB NOT NULL,
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        token_id BLOB NOT NULL DEFAULT X'',
                        PRIMARY KEY (token_id, key)
                    ) STRICT;
                    INSERT INTO idempotency_keys_scoped (key, request_hash, message_id, created_at)
                        SELECT key, request_hash, message_id, created_at FROM idempotency_keys;
                    DROP TABLE idempotency_keys;
                    ALTER TABLE idempotency_keys_scoped RENAME TO idempotency_keys;
                    CREATE INDEX idempotency_keys_message ON idempotency_keys(message_id);
                    """)
        }
    }
}
