extension PostgresSchema {
    /// `v13-outbox-unconfirmed` on PostgreSQL (``StoreSchema/registerUnconfirmed(in:)`` says why).
    static let unconfirmed: [Migration] = [
        Migration(
            "v13-outbox-unconfirmed",
            [
                "ALTER TABLE outbox ADD COLUMN confirmable BIGINT NOT NULL DEFAULT 1 CHECK (confirmable IN (0, 1))",
                "ALTER TABLE outbox ADD COLUMN checked_at DOUBLE PRECISION",
                """
                CREATE INDEX outbox_unconfirmed ON outbox(state, sent_at)
                    WHERE state = 'sent' AND kind = 'text' AND acknowledged_at IS NULL AND checked_at IS NULL AND confirmable = 1
                """,
            ])
    ]
}
