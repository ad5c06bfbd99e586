public import Foundation

/// Where an outgoing SMS is in its life: queued → submitting → sent → delivered, or failed.
public enum OutboxState: String, Sendable, Hashable, Codable, CodingKeyRepresentable, CaseIterable {
    /// Waiting for a modem (again, after a temporary error, once `nextAttemptAt` has passed).
    case queued
    /// Claimed by a modem that is submitting it now.
    case submitting
    /// Accepted by the network, with a message reference.
    case sent
    /// A status report confirmed delivery.
    case delivered
    /// Given up: a permanent error, or the sender decided not to retry.
    case failed
}

/// One outgoing SMS carrying ciphertext the ratchet has already committed.
public struct OutboxItem: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    /// The log entry this SMS carries, if any.
    public var messageID: Int64?
    public var contactID: UUID
    public var number: PhoneNumber
    /// The exact text to send (the 160-character ciphertext; not secret).
    public var body: String
    public var state: OutboxState
    /// Submission attempts so far (claims).
    public var attempts: Int
    public var lastError: String?
    /// Whether the last error was permanent (never retried; a retry by hand of the same SMS to
    /// the same number fails again unless its cause was fixed). False for a row the sender gave
    /// up on after repeated temporary failures, or one its peer never acknowledged.
    public var lastErrorIsPermanent: Bool
    /// The earliest time the row may be claimed again.
    public var nextAttemptAt: Date
    /// The modem that claimed or sent it.
    public var modem: String?
    /// The network's message reference, once sent (matches status reports).
    public var messageReference: Int?
    public var createdAt: Date
    public var updatedAt: Date
    /// When a modem first took it to submit (nil until then, or for a row claimed by a version
    /// that did not record it).
    public var submittingAt: Date?
    public var sentAt: Date?
    public var deliveredAt: Date?
    /// What the row carries: a text message, a resynchronisation handshake or an acknowledgement.
    public var kind: OutboxKind = .text
    /// The epoch and position the ciphertext was sealed at (rows queued since acknowledgements).
    public var epoch: UInt32?
    public var position: UInt32?
    /// Whether the row is sent again until the peer acknowledges it (docs/PROTOCOL.md §9.2).
    public var awaitsAcknowledgement = false
    /// How often it was sent again for want of an acknowledgement.
    public var resends = 0
    /// When the peer's gateway acknowledged it.
    public var acknowledgedAt: Date?
    /// The node that claimed it last (nil when claimed by no node, or never).
    public var node: String?
    /// Until when that node's claim holds while it is submitting (its heartbeats renew it).
    public var leaseUntil: Date?
    /// Temporary failures of the send itself (refusals, not modem trouble) since it was queued,
    /// sent or queued again by hand: what the sender's limit counts.
    public var temporaryFailures = 0
    /// When the first of those failures happened (nil while there is none).
    public var failingSince: Date?
    /// Whether anything could confirm its last send: a delivery report asked for, or a contact
    /// whose gateway acknowledges (true for rows sent before this was recorded).
    public var confirmable = true
    /// When an operator marked it checked with the contact, while unconfirmed; nil otherwise.
    public var checkedAt: Date?
}

/// What an outbox row carries.
public enum OutboxKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A sealed text message (with a log entry).
    case text
    /// A resynchronisation handshake SMS (`smsgw resync`, or the answer to the peer's).
    case handshake
    /// An acknowledgement of messages received (docs/PROTOCOL.md §9); it has no log entry.
    case acknowledgement
}

extension OutboxItem {
    /// The columns ``init(row:)`` reads, for the statements that name them instead of `SELECT *`
    /// (a named selection stays prepared; see ``GRDBConnection``).
    static let columns = """
        id, message_id, contact_id, phone_number, body, state, attempts, last_error, error_permanent, \
        next_attempt_at, modem, message_reference, created_at, updated_at, sent_at, delivered_at, kind, epoch, \
        position, awaits_ack, resends, acknowledged_at, submitting_at, node, lease_until, temporary_failures, \
        failing_since, confirmable, checked_at
        """

    init(row: StoreRow) throws {
        guard let state = OutboxState(rawValue: row["state"]) else {
            throw StoreError.corrupted("An outbox row has an unknown state; restore the database from a backup.")
        }
        func date(_ column: String) -> Date? {
            (row[column] as Double?).map(Date.init(timeIntervalSince1970:))
        }
        self.init(
            id: row["id"],
            messageID: row["message_id"],
            contactID: try UUID.fromStore(row["contact_id"]),
            number: try PhoneNumber(storedE164: row["phone_number"]),
            body: row["body"],
            state: state,
            attempts: row["attempts"],
            lastError: row["last_error"],
            lastErrorIsPermanent: row["error_permanent"],
            nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]),
            modem: row["modem"],
            messageReference: row["message_reference"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]),
            sentAt: date("sent_at"),
            deliveredAt: date("delivered_at"),
            kind: OutboxKind(rawValue: row["kind"] ?? "text") ?? .text
        )
        epoch = (row["epoch"] as Int64?).flatMap { UInt32(exactly: $0) }
        position = (row["position"] as Int64?).flatMap { UInt32(exactly: $0) }
        awaitsAcknowledgement = row["awaits_ack"] ?? false
        resends = row["resends"] ?? 0
        acknowledgedAt = date("acknowledged_at")
        if row.hasColumn("submitting_at") { submittingAt = date("submitting_at") }
        if row.hasColumn("node") {
            node = row["node"]
            leaseUntil = date("lease_until")
        }
        if row.hasColumn("temporary_failures") {
            temporaryFailures = row["temporary_failures"]
            failingSince = date("failing_since")
        }
        if row.hasColumn("confirmable") {
            confirmable = row["confirmable"]
            checkedAt = date("checked_at")
        }
    }
}

extension StoreReader {
    /// One outbox row.
    public func outboxItem(id: Int64) throws -> OutboxItem {
        guard let row = try db.row(sql: "SELECT * FROM outbox WHERE id = ?", arguments: [id]) else {
            throw StoreError.notFound(.outboxEntry(id: id))
        }
        return try OutboxItem(row: row)
    }

    /// Outbox rows in the given states (all when empty), oldest first.
    public func outboxItems(in states: Set<OutboxState> = []) throws -> [OutboxItem] {
        guard !states.isEmpty else {
            return try db.rows(sql: "SELECT * FROM outbox ORDER BY id").map(OutboxItem.init(row:))
        }
        let names = states.map(\.rawValue).sorted()
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return try db.rows(
            sql: "SELECT * FROM outbox WHERE state IN (\(marks)) ORDER BY id", arguments: StoreArguments(names)
        ).map(OutboxItem.init(row:))
    }

    /// The newest failed rows updated after `since`, newest first, at most `limit`: the
    /// failures `status` lists. Read from `outbox_failed` (`v15-count-indexes`), only the
    /// failures since then, not every SMS that ever failed.
    public func recentFailures(since: Date, limit: Int) throws -> [OutboxItem] {
        try db.rows(sql: Self.recentFailuresStatement, arguments: [since.timeIntervalSince1970, limit]).map(OutboxItem.init(row:))
    }

    /// ``recentFailures(since:limit:)``'s statement; the plan test reads it.
    static let recentFailuresStatement =
        "SELECT * FROM outbox WHERE state = 'failed' AND updated_at > ? ORDER BY id DESC LIMIT ?"

    /// How many outbox rows are in each state (for `smsgw status`).
    public func outboxCounts() throws -> [OutboxState: Int] {
        var counts: [OutboxState: Int] = [:]
        for row in try db.rows(sql: "SELECT state, COUNT(*) AS n FROM outbox GROUP BY state") {
            if let state = OutboxState(rawValue: row["state"]) { counts[state] = row["n"] }
        }
        return counts
    }

    /// The sent row a status report refers to, by modem and message reference (newest first).
    public func outboxItem(reference: Int, modem: String) throws -> OutboxItem? {
        try db.row(
            sql: "SELECT * FROM outbox WHERE modem = ? AND message_reference = ? AND state = 'sent' ORDER BY id DESC LIMIT 1",
            arguments: [modem, reference]
        ).map(OutboxItem.init(row:))
    }
}
