public import Foundation

/// Where an outbox row's ciphertext was sealed, and whether it is sent again until acknowledged
/// (docs/PROTOCOL.md §9.2): written with the row (``StoreTransaction/enqueueOutbox(_:to:messageID:kind:sealedAt:contactReadHere:now:)``).
public struct SealedPosition: Sendable, Equatable {
    public var epoch: UInt32
    public var position: UInt32
    public var awaitsAcknowledgement: Bool

    public init(epoch: UInt32, position: UInt32, awaitsAcknowledgement: Bool) {
        self.epoch = epoch
        self.position = position
        self.awaitsAcknowledgement = awaitsAcknowledgement
    }
}

extension StoreTransaction {
    /// Queues an SMS to `contact`; call it in the same transaction that advanced the ratchet.
    ///
    /// - Parameters:
    ///   - body: The exact text to send (the ciphertext).
    ///   - contact: The recipient; it must have a number.
    ///   - messageID: The log entry this SMS carries; its status follows the outbox row.
    ///   - kind: A text message (the default) or a resync handshake.
    ///   - sealedAt: Where the ciphertext was sealed, written with the row; nil for none.
    ///   - contactReadHere: True when `contact` was read in this transaction and its numbers
    ///     not changed since: its numbers are used as they are. Otherwise (the default) the
    ///     contact is read again, so a value from an earlier transaction never sends to a number
    ///     the contact no longer has.
    /// - Returns: The outbox row id.
    @discardableResult
    public func enqueueOutbox(
        _ body: String, to contact: Contact, messageID: Int64? = nil, kind: OutboxKind = .text,
        sealedAt: SealedPosition? = nil, contactReadHere: Bool = false, now: Date = Date()
    ) throws -> Int64 {
        let current = contactReadHere ? contact : try self.contact(id: contact.id)
        let numbers = current.numbers
        guard !numbers.isEmpty else {
            throw StoreError.invalidInput(
                "The contact \"\(current.name)\" has no phone number; give the contact a number first."
            )
        }
        // A peer with several numbers (a gateway with several modems) gets its SMS spread over
        // them in turn, so its modems share the receiving.
        var number = numbers[0]
        if numbers.count > 1 {
            let turn =
                try db.value(Int.self, sql: "SELECT number_turn FROM contacts WHERE id = ?", arguments: [current.id.storeString]) ?? 0
            number = numbers[turn % numbers.count]
            try db.execute(
                sql: "UPDATE contacts SET number_turn = ? WHERE id = ?",
                arguments: [(turn + 1) % numbers.count, current.id.storeString])
        }
        let time = now.timeIntervalSince1970
        notifyOutbox()
        return try db.insert(
            sql: """
                INSERT INTO outbox (message_id, contact_id, phone_number, body, state, next_attempt_at,
                    created_at, updated_at, kind, epoch, position, awaits_ack)
                VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
            arguments: [
                messageID, current.id.storeString, number.e164, body, time, time, time, kind.rawValue,
                sealedAt.map { Int64($0.epoch) }, sealedAt.map { Int64($0.position) }, sealedAt?.awaitsAcknowledgement ?? false,
            ])
    }

    /// Records that the network accepted the SMS with `reference`.
    ///
    /// - Parameters:
    ///   - node: The node that claimed the row, if it claimed it as one: refused when the row
    ///     passed to another node since (this node's lease ended).
    ///   - confirmable: Whether anything can confirm this send: a delivery report was asked for,
    ///     or the contact's gateway acknowledges. An SMS nothing can confirm is never counted as
    ///     unconfirmed (``StoreReader/unconfirmedSent(before:since:)``). A send clears an
    ///     earlier send's mark of checked.
    public func markOutboxSent(
        _ id: Int64, reference: Int, modem: String, node: String? = nil, confirmable: Bool = true, now: Date = Date()
    ) throws {
        let item = try transition(id, from: [.submitting], to: .sent, node: node)
        try db.execute(
            sql: """
                UPDATE outbox SET state = 'sent', message_reference = ?, modem = ?, sent_at = ?, updated_at = ?,
                    last_error = NULL, error_permanent = 0, temporary_failures = 0, failing_since = NULL,
                    confirmable = ?, checked_at = NULL
                WHERE id = ?
                """,
            arguments: [reference, modem, now.timeIntervalSince1970, now.timeIntervalSince1970, confirmable, id]
        )
        try followLog(item, status: .sent, error: nil)
        try recordSent(to: contact(id: item.contactID), at: now)
    }

    /// Records a delivery report.
    public func markOutboxDelivered(_ id: Int64, now: Date = Date()) throws {
        let item = try transition(id, from: [.sent], to: .delivered)
        try db.execute(
            sql: "UPDATE outbox SET state = 'delivered', delivered_at = ?, updated_at = ? WHERE id = ?",
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, id]
        )
        try followLog(item, status: .delivered, error: nil)
    }

    /// Records a failed attempt.
    ///
    /// - Parameters:
    ///   - error: What went wrong, in a plain sentence.
    ///   - permanent: True for errors a retry cannot fix (for example an invalid number):
    ///     the row becomes failed. Otherwise it is queued again for `retryAt`.
    ///   - retryAt: When a temporary failure may be retried; defaults to `now`.
    ///   - counted: Whether the failure was the send's own (the network or the modem refused this
    ///     SMS for a reason that may pass), which ``OutboxItem/temporaryFailures`` counts and
    ///     ``OutboxItem/failingSince`` dates; modem trouble is not counted. True with `permanent`
    ///     records the failure that made the sender give up: the row is failed, but its error was
    ///     temporary (``OutboxItem/lastErrorIsPermanent`` false), so a retry by hand may go through.
    ///   - node: The node that claimed the row, as for ``markOutboxSent(_:reference:modem:node:confirmable:now:)``.
    public func markOutboxFailed(
        _ id: Int64, error: String, permanent: Bool, retryAt: Date? = nil, counted: Bool = false, node: String? = nil,
        now: Date = Date()
    ) throws {
        let item = try transition(id, from: [.submitting, .sent], to: permanent ? .failed : .queued, node: node)
        let failures = item.temporaryFailures + (counted ? 1 : 0)
        let failingSince = (counted ? item.failingSince ?? now : item.failingSince)?.timeIntervalSince1970
        if permanent {
            try db.execute(
                sql: """
                    UPDATE outbox SET state = 'failed', last_error = ?, error_permanent = ?, updated_at = ?,
                        temporary_failures = ?, failing_since = ?
                    WHERE id = ?
                    """,
                arguments: [error, counted ? 0 : 1, now.timeIntervalSince1970, failures, failingSince, id]
            )
            try followLog(item, status: .failed, error: error)
        } else {
            try db.execute(
                sql: """
                    UPDATE outbox SET state = 'queued', last_error = ?, error_permanent = 0, next_attempt_at = ?,
                        updated_at = ?, temporary_failures = ?, failing_since = ?
                    WHERE id = ?
                    """,
                arguments: [error, (retryAt ?? now).timeIntervalSince1970, now.timeIntervalSince1970, failures, failingSince, id]
            )
        }
    }

    private func transition(
        _ id: Int64, from allowed: Set<OutboxState>, to target: OutboxState, node: String? = nil
    ) throws -> OutboxItem {
        let item = try outboxItem(id: id)
        try requireClaim(item, by: node)
        guard allowed.contains(item.state) else {
            throw StoreError.invalidState(
                "Outbox entry \(id) is \(item.state.rawValue) and cannot become \(target.rawValue); check the queue before changing it."
            )
        }
        return item
    }

    /// Moves the log row the outbox row carries to `status`, or, for a long text whose parts are
    /// several outbox rows, to the status of its least advanced part (failed as soon as one part
    /// failed), so the message reads `sent` only when every part was sent.
    private func followLog(_ item: OutboxItem, status: MessageStatus, error: String?) throws {
        guard let messageID = item.messageID else { return }
        let states = try db.values(
            String.self, sql: "SELECT state FROM outbox WHERE message_id = ? AND kind = 'text'", arguments: [messageID])
        let overall = states.count > 1 ? Self.overallStatus(states.compactMap(OutboxState.init(rawValue:))) : status
        // An acknowledgement from the peer's gateway says more than a later delivery report.
        try db.execute(
            sql: "UPDATE messages SET status = ?, error = COALESCE(?, error) WHERE id = ? AND status != 'acknowledged'",
            arguments: [overall.rawValue, error, messageID]
        )
    }

    /// The status of a message sent as several SMS: failed if one failed, else its least advanced part's.
    static func overallStatus(_ states: [OutboxState]) -> MessageStatus {
        if states.contains(.failed) { return .failed }
        if states.contains(where: { $0 == .queued || $0 == .submitting }) { return .queued }
        if states.contains(.sent) { return .sent }
        return .delivered
    }
}
