extension PostgresSchema {
    /// `v15-count-indexes`, the same statements on both backends
    /// (``StoreSchema/registerCountIndexes(in:)``).
    ///
    /// - `messages_status_direction_contact`: the log counted by direction and status
    ///   (`messageCounts`, read at each scrape of `/metrics`), which otherwise reads every
    ///   message's row, texts and all; the count reads this index alone. Status first, then the
    ///   contact: an index led by `direction` (or by status and direction alone) would be taken
    ///   for the log of one direction (or of one contact in one direction and status) and walk
    ///   every message of that direction (or status) instead of the page's own; this one serves
    ///   a contact's log in a direction and status exactly (`ReadIndexPlanTests`).
    /// - `outbox_failed`: the failures of the last day that `status` lists (`recentFailures`),
    ///   which otherwise reads every failed SMS ever sent. Only the failed rows; `state` leads
    ///   though it is constant, as in `outbox_unconfirmed`, or SQLite's planner, which has no
    ///   statistics, takes `outbox_due` for the equality.
    static let countIndexes: [Migration] = [
        Migration(
            "v15-count-indexes",
            [
                "CREATE INDEX messages_status_direction_contact ON messages(status, direction, contact_id)",
                "CREATE INDEX outbox_failed ON outbox(state, updated_at) WHERE state = 'failed'",
            ])
    ]
}
