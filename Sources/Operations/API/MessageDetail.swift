public import Foundation
public import Store

/// One message as the HTTP API shows it: the log's message, every status it took with its time,
/// and its SMS's submission attempts and last error.
///
/// Its JSON is the ``LoggedMessage``'s keys with `state` (the status), `createdAt` (the time),
/// `history` (`[{"seq","status","time"}]`), `states` (when it first entered each of `queued`,
/// `submitting`, `sent`, `delivered` and `failed`, null for a state it has not reached), `parts`,
/// `attempts` and `lastError`.
public struct MessageDetail: Sendable, Equatable, Encodable {
    public var history: MessageHistory
    /// The SMS its ciphertext takes: one per ciphertext logged with it, whether the daemon sent
    /// them (`send`) or a person copied them (`encrypt`); 0 for a message logged without one.
    public var parts: Int
    /// Submission attempts over its SMS.
    public var attempts: Int
    /// The last error of its SMS, or nil.
    public var lastError: String?
    /// When a modem first took one of its SMS to submit: the log records no `submitting` status.
    public var submittingAt: Date?
    /// Its SMS that went out and wait for a confirmation (``Store/OutboxItem/awaitsConfirmation``),
    /// which an operator may mark checked with the contact.
    public var awaitingConfirmation = 0

    enum CodingKeys: String, CodingKey { case state, createdAt, states, parts, attempts, lastError }

    /// The states the API reports an outgoing message's times for, in the order it goes through them.
    public static let reportedStates = ["queued", "submitting", "sent", "delivered", "failed"]

    /// When the message first entered each of ``reportedStates`` (nil for one it has not reached).
    /// An acknowledgement from the peer's gateway counts as delivered when no report came first.
    public var stateTimes: [String: Date?] {
        func first(_ statuses: String...) -> Date? {
            statuses.lazy.compactMap { status in history.history.first { $0.status.rawValue == status }?.time }.first
        }
        return [
            "queued": first("queued"), "submitting": submittingAt, "sent": first("sent"),
            "delivered": first("delivered", "acknowledged"), "failed": first("failed"),
        ]
    }

    public func encode(to encoder: any Encoder) throws {
        try history.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(history.message.status, forKey: .state)
        try container.encode(history.message.time, forKey: .createdAt)
        var states = container.nestedContainer(keyedBy: StateKey.self, forKey: .states)
        let times = stateTimes
        for state in Self.reportedStates {
            try states.encode(times[state] ?? nil, forKey: StateKey(stringValue: state))
        }
        try container.encode(parts, forKey: .parts)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(lastError, forKey: .lastError)
    }

    /// The message with this id, from one snapshot.
    ///
    /// - Throws: ``Store/StoreError/notFound(_:)``.
    public static func read(id: Int64, store: UnlockedStore) throws -> MessageDetail {
        try store.read { reader in try read(id: id, in: reader) }
    }

    /// The SMS a logged ciphertext field holds: one ciphertext a line, as sealing logs them.
    static func parts(of ciphertext: String?) -> Int {
        ciphertext.map { $0.split(whereSeparator: \.isNewline).count } ?? 0
    }

    /// The message with this id, in the caller's snapshot or transaction.
    static func read(id: Int64, in reader: StoreReader) throws -> MessageDetail {
        let history = MessageHistory(
            message: LoggedMessage(try reader.logEntry(id: id)), history: try reader.stateChanges(ofMessage: id))
        let items = try reader.outboxItems(ofMessage: id)
        let lastError = items.filter { $0.lastError != nil }.max { $0.updatedAt < $1.updatedAt }?.lastError
        return MessageDetail(
            history: history, parts: parts(of: history.message.ciphertext), attempts: items.reduce(0) { $0 + $1.attempts },
            lastError: lastError, submittingAt: items.compactMap(\.submittingAt).min(),
            awaitingConfirmation: items.count { $0.awaitsConfirmation })
    }
}

extension MessageDetail {
    /// The message just queued in the caller's transaction, as ``read(id:in:)`` would return it:
    /// built from the log entry and the SMS just written, so only its status history (numbered
    /// by the store) is read. Its SMS have no attempts, error or claim yet.
    static func queued(_ queued: QueuedMessage, logged: NewLogEntry, in reader: StoreReader) throws -> MessageDetail {
        let history = try reader.stateChanges(ofMessage: queued.logID)
        let entry = LogEntry(
            written: logged, id: queued.logID, contactName: queued.contact, sequence: history.last?.sequence ?? 0)
        return MessageDetail(
            history: MessageHistory(message: LoggedMessage(entry), history: history), parts: parts(of: logged.ciphertext), attempts: 0,
            lastError: nil, submittingAt: nil)
    }
}

/// A page of the message log (``MessageLog/page(_:store:)``): its messages, oldest first or
/// newest first, and the cursor of the next page.
///
/// Its JSON is `{"messages":[…],"next"}`: each message as `log --json` prints it; `next` is the
/// cursor to ask for the following page with (the last id here, or the query's own cursor when the
/// page is empty), so a client that pages on until a page comes back empty sees every message once:
/// oldest first, asking again later from the same cursor gives the messages logged since; newest
/// first, the pages go towards older messages and a message logged meanwhile comes before the
/// first page, shifting none.
public struct MessagePage: Sendable, Equatable, Encodable {
    public var messages: [LoggedMessage]
    public var next: Int64

    /// What a page holds.
    public struct Query: Sendable, Equatable {
        public var direction: MessageDirection?
        public var contact: String?
        public var status: MessageStatus?
        /// The previous page's `next` (0 for the first page).
        public var after: Int64
        public var order: Order
        public var limit: Int

        public init(
            direction: MessageDirection? = nil, contact: String? = nil, status: MessageStatus? = nil, after: Int64 = 0,
            order: Order = .oldest, limit: Int = 50
        ) {
            self.direction = direction
            self.contact = contact
            self.status = status
            self.after = after
            self.order = order
            self.limit = limit
        }
    }

    /// Which end of the log a listing starts at.
    public enum Order: String, Sendable, Equatable, CaseIterable {
        /// The oldest message first; later pages hold newer messages.
        case oldest
        /// The newest message first; later pages hold older messages.
        case newest
    }

    enum CodingKeys: String, CodingKey { case messages, next }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messages, forKey: .messages)
        try container.encode(next, forKey: .next)
    }
}

extension MessageLog {
    /// The most a page holds.
    public static let pageLimit = 500

    /// A page of the log: messages after the query's cursor in its order. A cursor no page of
    /// this store can have given (beyond the message ids' high-water mark, which `log prune`
    /// does not lower) is refused rather than answered with empty pages.
    ///
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown contact,
    ///   ``CursorError/messageAhead(_:)``.
    public static func page(_ query: MessagePage.Query, store: UnlockedStore) throws -> MessagePage {
        let limit = min(max(query.limit, 1), pageLimit)
        return try store.read { reader in
            if query.after > 0, query.after > (try reader.messageIDHighWater()) { throw CursorError.messageAhead(query.after) }
            let contact = try query.contact.map { try reader.contact(named: $0) }
            let entries = try reader.logPage(
                LogSelection(contact: contact, direction: query.direction, status: query.status), afterId: query.after,
                newestFirst: query.order == .newest, limit: limit)
            return MessagePage(messages: entries.map(LoggedMessage.init), next: entries.last?.id ?? query.after)
        }
    }
}

/// A key of the `states` object: a state's name.
private struct StateKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
