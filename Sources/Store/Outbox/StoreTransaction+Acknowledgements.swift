public import Foundation

/// Positions decrypted from one contact in one epoch, not acknowledged yet.
public struct PendingAcknowledgements: Sendable, Equatable {
    public var contact: Contact
    public var epoch: UInt32
    /// Ascending.
    public var positions: [UInt32]
    /// When the oldest of them was decrypted.
    public var oldest: Date
}

extension StoreReader {
    /// Every contact's positions waiting to be acknowledged, per epoch.
    public func pendingAcknowledgements() throws -> [PendingAcknowledgements] {
        let rows = try db.rows(
            sql: """
                SELECT contact_id, epoch, position, received_at FROM pending_acks WHERE queued_at IS NULL
                ORDER BY contact_id, epoch, position
                """)
        var result: [PendingAcknowledgements] = []
        for row in rows {
            let id = try UUID.fromStore(row["contact_id"])
            let epoch = UInt32(truncatingIfNeeded: row["epoch"] as Int64)
            let position = UInt32(truncatingIfNeeded: row["position"] as Int64)
            let time = Date(timeIntervalSince1970: row["received_at"])
            if let last = result.indices.last, result[last].contact.id == id, result[last].epoch == epoch {
                result[last].positions.append(position)
                result[last].oldest = min(result[last].oldest, time)
            } else {
                result.append(PendingAcknowledgements(contact: try contact(id: id), epoch: epoch, positions: [position], oldest: time))
            }
        }
        return result
    }

    /// When the oldest position still waiting to be acknowledged was decrypted, if any waits.
    public func oldestPendingAcknowledgement() throws -> Date? {
        try db.value(Double.self, sql: "SELECT MIN(received_at) FROM pending_acks WHERE queued_at IS NULL")
            .map(Date.init(timeIntervalSince1970:))
    }

    /// When the first SMS still waiting for its acknowledgement is due to be sent again
    /// (``outboxAwaitingAcknowledgement(dueBy:timeout:)``), if any waits.
    public func nextAcknowledgementTimeout(timeout: TimeInterval) throws -> Date? {
        try db.value(
            Double.self,
            sql: """
                SELECT MIN(sent_at + ? * (CAST(1 AS BIGINT) << CAST(resends AS INTEGER))) FROM outbox
                WHERE awaits_ack = 1 AND acknowledged_at IS NULL AND state IN ('sent', 'delivered')
                """,
            arguments: [timeout]
        ).map(Date.init(timeIntervalSince1970:))
    }

    /// When the contact's gateway last acknowledged one of this side's SMS, if ever.
    public func lastAcknowledgement(for contact: Contact) throws -> Date? {
        try db.value(Double.self, sql: Self.lastAcknowledgementStatement, arguments: [contact.id.storeString])
            .map(Date.init(timeIntervalSince1970:))
    }

    /// The statement ``lastAcknowledgement(for:)`` runs, with the contact's id as its argument.
    /// The condition on `acknowledged_at` changes nothing in the answer (MAX skips NULL) but is
    /// the partial index `outbox_acknowledged`'s: without it neither backend can use that index
    /// and the read goes through every SMS ever sent to the contact.
    static let lastAcknowledgementStatement =
        "SELECT MAX(acknowledged_at) FROM outbox WHERE contact_id = ? AND acknowledged_at IS NOT NULL"

    /// Rows sent (or delivered) that wait for an acknowledgement whose time to be sent again has
    /// come: `timeout · 2^resends` after they were last sent. (The casts give PostgreSQL its
    /// `BIGINT << INTEGER`; SQLite's integers are all one kind.)
    public func outboxAwaitingAcknowledgement(dueBy now: Date, timeout: TimeInterval) throws -> [OutboxItem] {
        try db.rows(
            sql: """
                SELECT * FROM outbox
                WHERE awaits_ack = 1 AND acknowledged_at IS NULL AND state IN ('sent', 'delivered')
                    AND sent_at + ? * (CAST(1 AS BIGINT) << CAST(resends AS INTEGER)) <= ?
                ORDER BY id
                """,
            arguments: [timeout, now.timeIntervalSince1970]
        ).map(OutboxItem.init(row:))
    }
}

extension StoreTransaction {
    /// Turns acknowledgements on or off for the contact (docs/PROTOCOL.md §9).
    public func setAcknowledgements(_ on: Bool, for contact: Contact) throws {
        try updateContact(contact, set: "acks = ?", [on])
        if !on { try db.execute(sql: "DELETE FROM pending_acks WHERE contact_id = ?", arguments: [contact.id.storeString]) }
    }

    /// Notes a position decrypted from the contact, with its ciphertext, to acknowledge with the next batch.
    public func addPendingAcknowledgement(
        from contact: Contact, epoch: UInt32, position: UInt32, ciphertext: String, at now: Date
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO pending_acks (contact_id, epoch, position, received_at, ciphertext)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """,
            arguments: [contact.id.storeString, Int64(epoch), Int64(position), now.timeIntervalSince1970, ciphertext])
    }

    /// Marks positions as acknowledged (their acknowledgement is queued); they are kept a day, so
    /// that a copy of one re-sent because the acknowledgement was lost is acknowledged again.
    public func markAcknowledgementsQueued(from contact: Contact, epoch: UInt32, positions: [UInt32], at now: Date) throws {
        for position in positions {
            try db.execute(
                sql: "UPDATE pending_acks SET queued_at = ? WHERE contact_id = ? AND epoch = ? AND position = ?",
                arguments: [now.timeIntervalSince1970, contact.id.storeString, Int64(epoch), Int64(position)])
        }
        try db.execute(
            sql: "DELETE FROM pending_acks WHERE queued_at < ?", arguments: [now.timeIntervalSince1970 - 86_400])
    }

    /// Acknowledges again a message received a second time: the sender re-sent it because the
    /// first acknowledgement did not arrive. Returns whether `ciphertext` was acknowledged before.
    public func acknowledgeAgain(_ ciphertext: String, from contact: Contact, at now: Date) throws -> Bool {
        try db.execute(
            sql: "UPDATE pending_acks SET queued_at = NULL, received_at = ? WHERE contact_id = ? AND ciphertext = ?",
            arguments: [now.timeIntervalSince1970, contact.id.storeString, ciphertext])
        return db.changesCount > 0
    }

    /// Marks the contact's outbox rows sealed at `positions` of `epoch` acknowledged, and each
    /// message all of whose SMS are now acknowledged `acknowledged`.
    /// - Returns: The ids of those messages; positions this side never sent are ignored.
    @discardableResult
    public func acknowledge(from contact: Contact, epoch: UInt32, positions: [UInt32], at now: Date) throws -> [Int64] {
        var messages: Set<Int64> = []
        for position in positions {
            let ids = try db.values(
                Int64.self,
                sql: """
                    SELECT message_id FROM outbox WHERE contact_id = ? AND epoch = ? AND position = ? AND kind = 'text'
                        AND acknowledged_at IS NULL AND message_id IS NOT NULL
                    """,
                arguments: [contact.id.storeString, Int64(epoch), Int64(position)])
            try db.execute(
                sql: """
                    UPDATE outbox SET acknowledged_at = ?, updated_at = ?
                    WHERE contact_id = ? AND epoch = ? AND position = ? AND kind = 'text' AND acknowledged_at IS NULL
                    """,
                arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, contact.id.storeString, Int64(epoch), Int64(position)])
            messages.formUnion(ids)
        }
        var acknowledged: [Int64] = []
        for id in messages.sorted() {
            let waiting =
                try db.value(
                    Int.self, sql: "SELECT COUNT(*) FROM outbox WHERE message_id = ? AND kind = 'text' AND acknowledged_at IS NULL",
                    arguments: [id]) ?? 0
            guard waiting == 0 else { continue }
            try db.execute(
                sql: "UPDATE messages SET status = 'acknowledged' WHERE id = ? AND status != 'failed'", arguments: [id])
            acknowledged.append(id)
        }
        return acknowledged
    }

    /// Queues a row that waited too long for its acknowledgement to be sent again, the same ciphertext.
    public func queueForResend(_ id: Int64, at now: Date) throws {
        try db.execute(
            sql: """
                UPDATE outbox SET state = 'queued', resends = resends + 1, next_attempt_at = ?, updated_at = ?
                WHERE id = ? AND state IN ('sent', 'delivered')
                """,
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, id])
        if db.changesCount > 0 { notifyOutbox() }
    }

    /// Gives up on a row its peer never acknowledged: the row and its message become failed. Its
    /// error is not permanent (``OutboxItem/lastErrorIsPermanent``): once the peer's gateway runs
    /// again, a retry by hand may go through.
    public func failUnacknowledged(_ id: Int64, error: String, at now: Date) throws {
        try db.execute(
            sql: "UPDATE outbox SET state = 'failed', last_error = ?, error_permanent = 0, updated_at = ? WHERE id = ?",
            arguments: [error, now.timeIntervalSince1970, id])
        try db.execute(
            sql: "UPDATE messages SET status = 'failed', error = ? WHERE id = (SELECT message_id FROM outbox WHERE id = ?)",
            arguments: [error, id])
    }
}
