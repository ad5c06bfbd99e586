extension PostgresSchema {
    /// `v8-outbox-by-message` on PostgreSQL (``StoreSchema/registerVersion8(in:)`` says why).
    static let version8: [Migration] = [
        Migration("v8-outbox-by-message", ["CREATE INDEX outbox_message ON outbox(message_id)"])
    ]
}
