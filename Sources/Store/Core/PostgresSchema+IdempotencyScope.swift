extension PostgresSchema {
    /// `v9-idempotency-keys-per-token` on PostgreSQL: the token column and the primary key on
    /// (token, key); ``StoreSchema/registerIdempotencyScope(in:)`` says what the column holds.
    static let idempotencyScope: [Migration] = [
        Migration(
            "v9-idempotency-keys-per-token",
            [
                "ALTER TABLE idempotency_keys ADD COLUMN token_id BYTEA NOT NULL DEFAULT ''::BYTEA",
                "ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey",
                "ALTER TABLE idempotency_keys ADD PRIMARY KEY (token_id, key)",
            ])
    ]
}
