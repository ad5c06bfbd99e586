/// What ``Resync/start(with:restart:by:address:store:now:using:)`` committed.
///
/// Its JSON is `{"id","contact","code"}`.
public struct StartedResync: Sendable, Equatable, Encodable {
    /// The id of the log row that records the handshake ("Resync started"): the message id every
    /// front end shows for it.
    public var logID: Int64
    /// The outbox row that carries the handshake SMS.
    public var outboxID: Int64
    /// The contact's name as stored (the user may have typed it in another case).
    public var contact: String
    /// The confirmation code the contact's operator sees with the request.
    public var code: String

    public init(logID: Int64, outboxID: Int64, contact: String, code: String) {
        self.logID = logID
        self.outboxID = outboxID
        self.contact = contact
        self.code = code
    }

    enum CodingKeys: String, CodingKey { case id, contact, code }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(logID, forKey: .id)
        try container.encode(contact, forKey: .contact)
        try container.encode(code, forKey: .code)
    }
}

/// What ``Resync/accept(from:by:address:store:now:using:)`` committed.
///
/// Its JSON is `{"id","contact","epoch","answer"}`.
public struct AcceptedResync: Sendable, Equatable, Encodable {
    /// The id of the log row that records the completed resync: the message id front ends show.
    public var logID: Int64
    /// The contact's name as stored.
    public var contact: String
    /// The epoch now in force.
    public var epoch: UInt32
    /// The outbox id of the answer, or nil for a contact without a number (send ``answer`` by hand).
    public var outboxID: Int64?
    /// The answer's 160 characters.
    public var answer: String
    /// Quarantined messages that opened with the new keys.
    public var openedFromQuarantine: Int

    enum CodingKeys: String, CodingKey { case id, contact, epoch, answer }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(logID, forKey: .id)
        try container.encode(contact, forKey: .contact)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(answer, forKey: .answer)
    }
}

/// What ``Resync/reject(from:by:address:store:now:)`` did.
///
/// Its JSON is `{"contact","rejected"}`.
public struct RejectedResync: Sendable, Equatable, Encodable {
    /// The contact's name as stored.
    public var contact: String
    /// Always true: the request was dropped.
    public var rejected = true
}
