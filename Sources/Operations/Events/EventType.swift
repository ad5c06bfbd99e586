/// The kinds of event the journal records, by the names webhooks and the event stream use.
public enum EventType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// An incoming message was decrypted (or a long text logged with its gaps marked).
    case messageReceived = "message.received"
    /// An outgoing message was submitted to the network (every part of a long text).
    case messageSent = "message.sent"
    /// A delivery report or the peer's acknowledgement confirmed an outgoing message.
    case messageDelivered = "message.delivered"
    /// An outgoing message failed for good.
    case messageFailed = "message.failed"
    /// A contact's incoming messages failed verification often enough that it needs a resync.
    case contactDesync = "contact.desync"
    /// A resync with a contact completed: new keys are in force.
    case contactResynced = "contact.resynced"
    /// A modem stopped being ready (recovering, unplugged, stopped).
    case modemDown = "modem.down"
    /// A modem became ready.
    case modemUp = "modem.up"

    public var description: String { rawValue }

    /// Every type's name, for messages that list them.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
