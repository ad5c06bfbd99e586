extension PostgresSchema {
    /// `v10-outbox-temporary-failures` on PostgreSQL (``StoreSchema/registerOutboxFailures(in:)`` says why).
    static let outboxFailures: [Migration] = [
        Migration(
            "v10-outbox-temporary-failures",
            [
                "ALTER TABLE outbox ADD COLUMN temporary_failures BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE outbox ADD COLUMN failing_since DOUBLE PRECISION",
            ])
    ]
}
