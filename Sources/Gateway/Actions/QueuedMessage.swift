public import GSM7

/// What ``GatewayActions/queueText(_:to:store:transliterate:)`` committed.
public struct QueuedMessage: Sendable, Equatable {
    /// The message's log id (`smsgw log` shows it; its status follows the outbox row).
    public var logID: Int64
    /// The outbox row that will carry the ciphertext.
    public var outboxID: Int64
    /// The position of the message in this side's sending chain.
    public var position: UInt32
    /// Characters replaced to fit GSM-7 (only with `transliterate`), to show the user.
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
}
