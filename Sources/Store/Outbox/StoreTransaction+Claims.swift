public import Foundation

extension StoreTransaction {
    /// Claims the next due row for `modem`, fairly across contacts, and marks it submitting.
    ///
    /// Among contacts with a due row, the one served longest ago (or never) goes first, and
    /// within a contact the oldest row; so one contact's burst, or a bad number waiting for
    /// its retry time, never holds up the others. (A contact never served has no sequence:
    /// `NULLS FIRST` says so on both backends, whose defaults differ.) On PostgreSQL the row is read
    /// `FOR UPDATE SKIP LOCKED`, so nodes claiming at once take different rows.
    ///
    /// - Parameters:
    ///   - node: The node claiming: the row records it and the end of its lease (renewed by its
    ///     heartbeats, ``recordHeartbeat(_:now:)``). Nil for a claim that names no node (one
    ///     process alone on the store).
    ///   - othersReady: The node's other modems that are ready now: rows of contacts pinned to
    ///     one of them are theirs, and so are rows of contacts pinned to a ready modem of another
    ///     node that is up. Rows of contacts pinned to `modem`, to no modem, or to a modem that is
    ///     not ready (or not configured, or on a node that is down) may be claimed: the failover.
    public func claimNextOutbox(
        modem: String, node: GatewayNode? = nil, othersReady: Set<String> = [], now: Date = Date()
    ) throws -> OutboxItem? {
        let pins = Self.pinFilter(othersReady: othersReady, node: node?.name, now: now)
        let row = try db.row(
            sql: """
                SELECT o.id FROM outbox o
                WHERE o.state = 'queued' AND o.next_attempt_at <= ?\(pins.sql)
                ORDER BY (SELECT MAX(p.claim_sequence) FROM outbox p WHERE p.contact_id = o.contact_id) ASC NULLS FIRST,
                    o.id ASC
                LIMIT 1\(db.dialect.skippingLockedRows)
                """,
            arguments: [now.timeIntervalSince1970] + pins.arguments
        )
        guard let row else { return nil }
        let id: Int64 = row["id"]
        let sequence = (try db.value(Int64.self, sql: Self.lastClaimSequence) ?? 0) + 1
        let time = now.timeIntervalSince1970
        try db.execute(
            sql: """
                UPDATE outbox SET state = 'submitting', attempts = attempts + 1, modem = ?1, claim_sequence = ?2,
                    updated_at = ?3, submitting_at = COALESCE(submitting_at, ?3), node = ?4, lease_until = ?5
                WHERE id = ?6
                """,
            arguments: [modem, sequence, time, node?.name, node.map { time + $0.leaseSeconds }, id]
        )
        return try outboxItem(id: id)
    }

    /// The number of the latest claim, read from the index `outbox_claim_sequence`.
    static let lastClaimSequence = "SELECT MAX(claim_sequence) FROM outbox"

    /// Returns rows left in `submitting` (a process died mid-submission) to the queue.
    ///
    /// Resending the same stored ciphertext is safe: the peer drops a duplicate.
    /// Call it once when the daemon starts, before any modem claims.
    ///
    /// - Parameter node: The node starting: only its own claims, and claims that name no node
    ///   (made before nodes were recorded), go back; another node's are its own to finish, or
    ///   pass on when its lease ends. Nil requeues every claim (one process alone on the store).
    @discardableResult
    public func requeueInterruptedOutbox(node: String? = nil, now: Date = Date()) throws -> Int {
        let time = now.timeIntervalSince1970
        let mine = node == nil ? "" : " AND (node = ?3 OR node IS NULL)"
        try db.execute(
            sql: """
                UPDATE outbox SET state = 'queued', node = NULL, lease_until = NULL, next_attempt_at = ?1, updated_at = ?2
                WHERE state = 'submitting'\(mine)
                """,
            arguments: node.map { [time, time, $0] } ?? [time, time]
        )
        return db.changesCount
    }

    /// Throws when the row `item` was claimed by `node` but has since passed to another node
    /// (this node's lease ended): the row is the other node's to record now.
    func requireClaim(_ item: OutboxItem, by node: String?) throws {
        guard let node, let holder = item.node, holder != node else { return }
        throw StoreError.invalidState(
            "Outbox entry \(item.id) passed to node \(holder) when this node's lease ended; that node sends it now."
        )
    }
}
