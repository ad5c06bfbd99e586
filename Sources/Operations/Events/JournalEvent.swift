public import Foundation
public import Store

/// One event of the journal as webhooks and the event stream send it: its id, its type and its
/// payload (`data`), which never holds a message text unless a reader that may see it adds it.
///
/// Its JSON, through ``OperationsJSON``, is the body of a webhook request and of an event-stream
/// message: `{"data": {...}, "id": 42, "timestamp": "…", "type": "message.received"}`.
public struct JournalEvent: Sendable, Hashable, Encodable {
    /// The journal's cursor: a reader resumes after the last id it handled.
    public var id: Int64
    /// The type's name (``EventType``'s raw value; kept as text so a newer daemon's type passes through).
    public var type: String
    public var time: Date
    /// The message the event is about, when it is about one still in the log.
    public var messageID: Int64?
    /// The payload: `message` (id, direction, status, contact, number, error), `contact` (a name)
    /// or `modem` (name, state, error), by type.
    public var data: JSONValue

    /// The event from its journal row.
    public init(_ stored: StoredEvent) {
        id = stored.id
        type = stored.type
        time = stored.time
        messageID = stored.messageID
        data = (try? JSONDecoder().decode(JSONValue.self, from: Data(stored.payload.utf8))) ?? .object([:])
    }

    /// The type, when this version knows it.
    public var eventType: EventType? { EventType(rawValue: type) }

    /// The event with the received message's text added as `data.message.text`, read from the
    /// encrypted log inside the caller's snapshot; unchanged for other types or a pruned message.
    public func includingText(from reader: StoreReader) throws -> JournalEvent {
        guard eventType == .messageReceived, let messageID else { return self }
        guard let entry = try? reader.logEntry(id: messageID), let text = entry.text else { return self }
        var event = self
        event.data.set(.string(text), at: ["message", "text"])
        return event
    }

    enum CodingKeys: String, CodingKey { case id, type, timestamp, data }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(time, forKey: .timestamp)
        try container.encode(data, forKey: .data)
    }
}
