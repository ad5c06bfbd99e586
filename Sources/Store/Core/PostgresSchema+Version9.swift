extension PostgresSchema {
    /// `v9-outbox-temporary-failures` on PostgreSQL (``StoreSchema/registerVersion9(in:)`` says why).
    static let version9: [Migration] = [
        Migration(
            "v9-outbox-temporary-failures",
            [
                "ALTER TABLE outbox ADD COLUMN temporary_failures BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE outbox ADD COLUMN failing_since DOUBLE PRECISION",
            ])
    ]
}
