/// What ``GatewayActions/startResync(contactName:restart:store:)`` committed.
public struct StartedResync: Sendable, Equatable {
    /// The id of the log row that records the handshake ("Resync started"): the message id every
    /// command shows for it.
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
}
