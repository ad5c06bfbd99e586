public import GSM7

/// What ``Messages/queue(_:to:transliterate:store:now:using:)`` committed.
///
/// Its JSON is `{"id","contact","position"}` (`smsgw send --json`).
public struct QueuedMessage: Sendable, Equatable, Encodable {
    /// The message's log id: the message id every front end shows (its status follows the outbox row).
    public var logID: Int64
    /// The outbox row that will carry the ciphertext.
    public var outboxID: Int64
    /// The position of the message in this side's sending chain.
    public var position: UInt32
    /// Characters replaced to fit GSM-7 (only when transliterating), to show the user.
    public var replacements: [Transliteration]
    /// The contact's name as stored (the user may have typed it in another case).
    public var contact: String

    public init(logID: Int64, outboxID: Int64, position: UInt32, replacements: [Transliteration] = [], contact: String = "") {
        self.logID = logID
        self.outboxID = outboxID
        self.position = position
        self.replacements = replacements
        self.contact = contact
    }

    enum CodingKeys: String, CodingKey { case id, contact, position }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(logID, forKey: .id)
        try container.encode(contact, forKey: .contact)
        try container.encode(position, forKey: .position)
    }
}

/// What ``Messages/encrypt(_:for:transliterate:store:now:using:)`` committed.
///
/// Its JSON is `{"id","contact","ciphertext","position"}`.
public struct EncryptedMessage: Sendable, Equatable, Encodable {
    /// The log row (`encrypted`) that keeps the text and the ciphertext.
    public var logID: Int64
    /// The contact's name as stored.
    public var contact: String
    /// The 160 characters to copy and paste into any SMS app.
    public var ciphertext: String
    /// The position of the message in this side's sending chain.
    public var position: UInt32
    /// Characters replaced to fit GSM-7 (only when transliterating), to show the user.
    public var replacements: [Transliteration]

    enum CodingKeys: String, CodingKey { case id, contact, ciphertext, position }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(logID, forKey: .id)
        try container.encode(contact, forKey: .contact)
        try container.encode(ciphertext, forKey: .ciphertext)
        try container.encode(position, forKey: .position)
    }
}
