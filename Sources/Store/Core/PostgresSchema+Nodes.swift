extension PostgresSchema {
    /// `v8-nodes` on PostgreSQL: the nodes table, the claim's node and lease on the outbox, and
    /// the node of a modem's status row (``StoreSchema/registerNodes(in:)`` says what each holds).
    static let nodes: [Migration] = [
        Migration(
            "v8-nodes",
            [
                """
                CREATE TABLE nodes (
                    name TEXT PRIMARY KEY NOT NULL,
                    version TEXT NOT NULL,
                    started_at DOUBLE PRECISION NOT NULL,
                    heartbeat_at DOUBLE PRECISION NOT NULL,
                    stopped_at DOUBLE PRECISION,
                    health_seconds DOUBLE PRECISION NOT NULL,
                    lease_seconds DOUBLE PRECISION NOT NULL
                )
                """,
                "ALTER TABLE outbox ADD COLUMN node TEXT",
                "ALTER TABLE outbox ADD COLUMN lease_until DOUBLE PRECISION",
                "CREATE INDEX outbox_claims ON outbox(state, node)",
                "ALTER TABLE modem_status ADD COLUMN node TEXT",
            ])
    ]
}
