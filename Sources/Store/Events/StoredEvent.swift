public import Foundation

/// One row of the event journal (migration `v6-event-journal`): what happened, when, to which
/// contact or message, with a JSON payload that holds no message text.
///
/// Triggers write the message, resync and modem events in the transaction of their cause;
/// ``StoreTransaction/appendEvent(type:time:contact:payload:)`` writes the others. ``id`` grows
/// with every event and is never reused, so a reader resumes after the last one it handled.
public struct StoredEvent: Sendable, Hashable {
    /// The journal's cursor: increasing in the order the events were committed.
    public var id: Int64
    /// The event's type, e.g. `message.received` (the Operations layer names them).
    public var type: String
    public var time: Date
    /// The contact the event is about, when there is one (removing it deletes the event).
    public var contactID: UUID?
    /// The logged message the event is about, when there is one (pruning it deletes the event).
    public var messageID: Int64?
    /// A JSON object, never holding a message text.
    public var payload: String
}

extension StoreReader {
    /// The events after `id`, oldest first.
    ///
    /// - Parameters:
    ///   - id: The last event already handled (0 for the whole journal).
    ///   - types: Only events of these types, or nil for all.
    ///   - limit: At most this many events; a full batch means more may be waiting.
    public func events(after id: Int64, types: Set<String>? = nil, limit: Int = 500) throws -> [StoredEvent] {
        guard limit > 0 else { return [] }
        var arguments: StoreArguments = [id]
        var filter = "id > ?"
        if let types {
            guard !types.isEmpty else { return [] }
            filter += " AND type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))"
            arguments.append(contentsOf: StoreArguments(types.sorted()))
        }
        arguments.append(contentsOf: [limit])
        return try db.rows(
            sql: "SELECT id, type, time, contact_id, message_id, payload FROM events WHERE \(filter) ORDER BY id LIMIT ?",
            arguments: arguments
        ).map(Self.event(row:))
    }

    /// How many events after `id` have one of `types`: an endpoint's backlog.
    public func eventCount(after id: Int64, types: Set<String>) throws -> Int {
        guard !types.isEmpty else { return 0 }
        var arguments: StoreArguments = [id]
        arguments.append(contentsOf: StoreArguments(types.sorted()))
        let marks = Array(repeating: "?", count: types.count).joined(separator: ", ")
        return try db.value(Int.self, sql: "SELECT COUNT(*) FROM events WHERE id > ? AND type IN (\(marks))", arguments: arguments) ?? 0
    }

    /// One event, or nil when no event has this id.
    public func event(id: Int64) throws -> StoredEvent? {
        try db.row(
            sql: "SELECT id, type, time, contact_id, message_id, payload FROM events WHERE id = ?", arguments: [id]
        ).map(Self.event(row:))
    }

    /// The newest event's id, 0 when the journal is empty: where a reader that wants only new
    /// events starts.
    public func latestEventID() throws -> Int64 {
        try db.value(Int64.self, sql: "SELECT COALESCE(MAX(id), 0) FROM events") ?? 0
    }

    private static func event(row: StoreRow) throws -> StoredEvent {
        let contact: String? = row["contact_id"]
        return StoredEvent(
            id: row["id"], type: row["type"], time: Date(timeIntervalSince1970: row["time"]),
            contactID: contact.flatMap(UUID.init(uuidString:)), messageID: row["message_id"], payload: row["payload"])
    }
}

extension StoreTransaction {
    /// Adds an event the triggers do not write, in this transaction, and returns its id.
    ///
    /// - Parameters:
    ///   - type: The event's type, e.g. `contact.desync`.
    ///   - contact: The contact it is about, if any.
    ///   - payload: A JSON object without any message text.
    @discardableResult
    public func appendEvent(type: String, time: Date, contact: Contact? = nil, payload: String) throws -> Int64 {
        try db.insert(
            sql: "INSERT INTO events (type, time, contact_id, payload) VALUES (?, ?, ?, ?) RETURNING id",
            arguments: [type, time.timeIntervalSince1970, contact?.id.storeString, payload])
    }
}
