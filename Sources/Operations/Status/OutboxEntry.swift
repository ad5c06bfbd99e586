public import Foundation
public import Store

extension GatewayStatus {
    /// One SMS in the outbox as `smsgw status` lists it: by the id `smsgw send` printed.
    public struct OutboxEntry: Sendable, Equatable, Codable {
        /// The message's id: its log id, the one `smsgw send` printed and `smsgw log` shows. Nil for
        /// a resync handshake, which the log records separately.
        public var id: Int64?
        /// `text` or `handshake`.
        public var kind: OutboxKind
        /// The contact's name.
        public var contact: String
        /// `queued`, `submitting` or `failed`.
        public var state: OutboxState
        /// Submission attempts so far: every claim, modem trouble and hand-overs included, so it
        /// may exceed `[outbox] max_attempts`.
        public var attempts: Int
        /// The temporary failures of the send itself that `[outbox] max_attempts` counts (since it
        /// was queued, sent or retried by hand).
        public var temporaryFailures: Int
        /// The last error, in a plain sentence (from the modem or the network: print it escaped).
        public var lastError: String?
        /// When the row last changed.
        public var updatedAt: Date

        public init(_ item: OutboxItem, contact: String) {
            id = item.messageID
            kind = item.kind
            self.contact = contact
            state = item.state
            attempts = item.attempts
            temporaryFailures = item.temporaryFailures
            lastError = item.lastError
            updatedAt = item.updatedAt
        }

        enum CodingKeys: String, CodingKey { case id, kind, contact, state, attempts, temporaryFailures, lastError, updatedAt }

        // By hand so that absent values are `null`, not missing keys; a daemon of an earlier
        // version says no `temporaryFailures` (read as 0).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(Int64.self, forKey: .id)
            kind = try container.decode(OutboxKind.self, forKey: .kind)
            contact = try container.decode(String.self, forKey: .contact)
            state = try container.decode(OutboxState.self, forKey: .state)
            attempts = try container.decode(Int.self, forKey: .attempts)
            temporaryFailures = try container.decodeIfPresent(Int.self, forKey: .temporaryFailures) ?? 0
            lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
            updatedAt = try container.decode(Date.self, forKey: .updatedAt)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(contact, forKey: .contact)
            try container.encode(state, forKey: .state)
            try container.encode(attempts, forKey: .attempts)
            try container.encode(temporaryFailures, forKey: .temporaryFailures)
            try container.encode(lastError, forKey: .lastError)
            try container.encode(updatedAt, forKey: .updatedAt)
        }
    }

    /// How many waiting messages `status` lists (the oldest), and how many recent failures.
    static let queueListLimit = 20
    static let failureListLimit = 5
    /// Failures older than this are left out of the list (the counts still include them).
    static let failureListAge: TimeInterval = 86_400

    /// The rows `status` lists: waiting ones oldest first, then the newest failures of the last day.
    static func queueEntries(in reader: StoreReader, now: Date) throws -> [OutboxEntry] {
        let waiting = try reader.outboxItems(in: [.queued, .submitting]).prefix(queueListLimit)
        let failed = try reader.recentFailures(since: now - failureListAge, limit: failureListLimit)
        var names: [UUID: String] = [:]
        return try (Array(waiting) + Array(failed)).map { item in
            if names[item.contactID] == nil { names[item.contactID] = try reader.contact(id: item.contactID).name }
            return OutboxEntry(item, contact: names[item.contactID] ?? "")
        }
    }
}
