public import Foundation
public import Store

/// One message of the log as every front end shows it: `smsgw log --json` prints one per line.
///
/// Its JSON has every key, absent values `null`: `id, seq, time, direction, contact, number,
/// status, text, ciphertext, error`.
public struct LoggedMessage: Sendable, Equatable, Encodable {
    /// The message id: the one `send` and `resync` return and `status` lists.
    public var id: Int64
    /// The change feed's cursor for the message's latest status (or, in a ``LogChange``, of that change).
    public var seq: Int64
    /// When it was logged.
    public var time: Date
    public var direction: MessageDirection
    /// The contact's current name, or nil for an unknown sender.
    public var contact: String?
    /// The number (or alphanumeric sender ID) it came from or went to.
    public var number: String?
    public var status: MessageStatus
    /// The text (decrypted from the store); from an SMS, so hostile: escape it for a terminal.
    public var text: String?
    /// The 160 characters as sent or received.
    public var ciphertext: String?
    /// What went wrong, or a note, in a sentence.
    public var error: String?

    public init(_ entry: LogEntry) {
        id = entry.id
        seq = entry.sequence
        time = entry.time
        direction = entry.direction
        contact = entry.contactName
        number = entry.remoteNumber
        status = entry.status
        text = entry.text
        ciphertext = entry.ciphertext
        error = entry.error
    }

    enum CodingKeys: String, CodingKey { case id, seq, time, direction, contact, number, status, text, ciphertext, error }

    // By hand so that absent values are null, not missing: every line has every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(seq, forKey: .seq)
        try container.encode(time, forKey: .time)
        try container.encode(direction, forKey: .direction)
        try container.encode(contact, forKey: .contact)
        try container.encode(number, forKey: .number)
        try container.encode(status, forKey: .status)
        try container.encode(text, forKey: .text)
        try container.encode(ciphertext, forKey: .ciphertext)
        try container.encode(error, forKey: .error)
    }
}

/// One change of the log: a message was logged, or its status changed.
///
/// Its JSON is the message as it is now with the `status` and `seq` of this change (`time` stays
/// the message's), so a consumer that keeps the last `seq` resumes after it.
public struct LogChange: Sendable, Equatable, Encodable {
    /// The feed's cursor: increasing in the order the changes were committed.
    public var sequence: Int64
    /// When the change happened (for a new message, when it was logged).
    public var time: Date
    /// The status from this change on.
    public var status: MessageStatus
    /// Whether this is the message's first appearance, not a later change of status.
    public var isNew: Bool
    /// The message as it is now.
    public var message: LoggedMessage

    init(_ event: LogEvent) {
        sequence = event.sequence
        time = event.time
        status = event.status
        isNew = event.isNew
        message = LoggedMessage(event.entry)
    }

    public func encode(to encoder: any Encoder) throws {
        var line = message
        line.seq = sequence
        line.status = status
        try line.encode(to: encoder)
    }
}

/// One message with every status it took: what the HTTP API's message resource shows.
///
/// Its JSON is the message's (``LoggedMessage``) with `history`: `[{"seq","status","time"}]`,
/// oldest first.
public struct MessageHistory: Sendable, Equatable, Encodable {
    public var message: LoggedMessage
    /// Each status the message took, oldest first: the first is the one it was logged with.
    public var history: [MessageStateChange]

    enum CodingKeys: String, CodingKey { case history }
    enum ChangeKeys: String, CodingKey { case seq, status, time }

    public func encode(to encoder: any Encoder) throws {
        try message.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        var changes = container.nestedUnkeyedContainer(forKey: .history)
        for change in history {
            var object = changes.nestedContainer(keyedBy: ChangeKeys.self)
            try object.encode(change.sequence, forKey: .seq)
            try object.encode(change.status, forKey: .status)
            try object.encode(change.time, forKey: .time)
        }
    }
}
