extension PostgresSchema {
    /// `v14-read-indexes`, the same statements on both backends
    /// (``StoreSchema/registerReadIndexes(in:)``).
    ///
    /// - `messages_status`: the log listed by status (`logPage` with a status, newest or oldest
    ///   first), which otherwise walks the whole log by id to find a rare status (`failed`,
    ///   `rejected`); `messages_contact_status`: the same for one contact, which would otherwise
    ///   take `messages_status` and walk every message in a common status (`delivered`).
    /// - `outbox_acknowledged`: the last acknowledgement of each contact (`lastAcknowledgement`,
    ///   read for every contact by `status`), which otherwise reads every SMS ever sent to it. Only
    ///   the acknowledged rows; the statement repeats the condition so that both backends use it.
    /// - `outbox_claim_sequence`: the next claim's number (`claimNextOutbox`), which otherwise
    ///   reads an index entry of every SMS ever sent at each claim.
    static let readIndexes: [Migration] = [
        Migration(
            "v14-read-indexes",
            [
                "CREATE INDEX messages_status ON messages(status, id)",
                "CREATE INDEX messages_contact_status ON messages(contact_id, status, id)",
                "CREATE INDEX outbox_acknowledged ON outbox(contact_id, acknowledged_at) WHERE acknowledged_at IS NOT NULL",
                "CREATE INDEX outbox_claim_sequence ON outbox(claim_sequence)",
            ])
    ]
}
