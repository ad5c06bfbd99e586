public import GSM7

/// What ``Messages/queue(_:to:transliterate:maxParts:by:address:store:now:using:)`` committed.
///
/// Its JSON is `{"id","contact","position","parts"}` (`smsgw send --json`).
public struct QueuedMessage: Sendable, Equatable, Encodable {
    /// The message's log id: the message id every front end shows (its status follows the outbox row).
    public var logID: Int64
    /// The outbox row that will carry the (first) ciphertext.
    public var outboxID: Int64
    /// The position of the message in this side's sending chain.
    public var position: UInt32
    /// Characters replaced to fit GSM-7 (only when transliterating), to show the user.
    public var replacements: [Transliteration]
    /// The contact's name as stored (the user may have typed it in another case).
    public var contact: String
    /// How many SMS the text costs: 1, or its parts (docs/PROTOCOL.md §8).
    public var parts: Int

    public init(
        logID: Int64, outboxID: Int64, position: UInt32, replacements: [Transliteration] = [], contact: String = "", parts: Int = 1
    ) {
        self.logID = logID
        self.outboxID = outboxID
        self.position = position
        self.replacements = replacements
        self.contact = contact
        self.parts = parts
    }

    enum CodingKeys: String, CodingKey { case id, contact, position, parts }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(logID, forKey: .id)
        try container.encode(contact, forKey: .contact)
        try container.encode(position, forKey: .position)
        try container.encode(parts, forKey: .parts)
    }
}

/// What ``Messages/encrypt(_:for:transliterate:store:now:using:)`` committed.
///
/// Its JSON is `{"id","contact","ciphertext","ciphertexts","parts","position"}`: `ciphertext` is
/// every message's 160 characters, one per line, as printed; `ciphertexts` the same as a list.
public struct EncryptedMessage: Sendable, Equatable, Encodable {
    /// The log row (`encrypted`) that keeps the text and the ciphertext.
    public var logID: Int64
    /// The contact's name as stored.
    public var contact: String
    /// The 160 characters of each message to copy and paste into any SMS app, in order: one for a
    /// text that fits one message, one per part for a longer one.
    public var ciphertexts: [String]
    /// The position of the (first) message in this side's sending chain.
    public var position: UInt32
    /// Characters replaced to fit GSM-7 (only when transliterating), to show the user.
    public var replacements: [Transliteration]

    /// The ciphertexts, one per line.
    public var ciphertext: String { ciphertexts.joined(separator: "\n") }

    enum CodingKeys: String, CodingKey { case id, contact, ciphertext, ciphertexts, parts, position }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(logID, forKey: .id)
        try container.encode(contact, forKey: .contact)
        try container.encode(ciphertext, forKey: .ciphertext)
        try container.encode(ciphertexts, forKey: .ciphertexts)
        try container.encode(ciphertexts.count, forKey: .parts)
        try container.encode(position, forKey: .position)
    }
}

/// What a text would cost (``Messages/plan(_:transliterate:maxParts:)``): its septets, the SMS it
/// takes, and the septets still free in the last one.
///
/// Its JSON is `{"septets","messages","remaining"}`.
public struct TextPlan: Sendable, Equatable, Encodable {
    public var septets: Int
    public var messages: Int
    public var remaining: Int

    public init(septets: Int, messages: Int, remaining: Int) {
        self.septets = septets
        self.messages = messages
        self.remaining = remaining
    }
}
