public import Foundation

/// One entry of the log's change feed: a message was logged, or its status changed.
///
/// The feed is the table `message_events` (migration `v4-message-events`), written by triggers on
/// `messages`, so every writer feeds it. ``sequence`` grows with every event and is never reused;
/// a reader keeps the last one it handled and asks for the events after it
/// (``StoreReader/logEvents(after:selection:limit:)``), which is how `smsgw log --follow --since SEQ`
/// resumes after a restart.
public struct LogEvent: Sendable, Hashable {
    /// The feed's cursor: increasing in the order the events were committed.
    public var sequence: Int64
    /// When the event happened: the message's time for its first appearance, the change's time after.
    public var time: Date
    /// The status the message had from this event on.
    public var status: MessageStatus
    /// Whether this is the message's first appearance (not a later change of status).
    public var isNew: Bool
    /// The message as it is now (its ``LogEntry/status`` may have moved on since this event).
    public var entry: LogEntry
}

extension StoreReader {
    /// The events after `sequence`, oldest first.
    ///
    /// - Parameters:
    ///   - sequence: The last event already handled (0 for the whole feed).
    ///   - selection: Only events of these messages: of a contact, a direction, and the events
    ///     that put a message in a status.
    ///   - limit: At most this many events; a full batch means more may be waiting.
    public func logEvents(after sequence: Int64, selection: LogSelection = .all, limit: Int = 500) throws -> [LogEvent] {
        guard limit > 0 else { return [] }
        let selected = selection.conditions(statusColumn: "e.status")
        let filter = (["e.seq > ?"] + selected.sql).joined(separator: " AND ")
        let arguments: StoreArguments = [sequence] + selected.arguments + [limit]
        let rows = try db.rows(
            sql: """
                SELECT e.seq AS event_seq, e.status AS event_status, e.time AS event_time,
                    e.seq = (SELECT MIN(f.seq) FROM message_events f WHERE f.message_id = e.message_id) AS event_is_new,
                    \(LogEntry.columns)
                FROM message_events e
                JOIN messages m ON m.id = e.message_id
                LEFT JOIN contacts c ON c.id = m.contact_id
                WHERE \(filter)
                ORDER BY e.seq ASC LIMIT ?
                """,
            arguments: arguments)
        return try rows.map { row in
            LogEvent(
                sequence: row["event_seq"],
                time: Date(timeIntervalSince1970: row["event_time"]),
                status: MessageStatus(rawValue: row["event_status"]),
                isNew: row["event_is_new"],
                entry: try LogEntry(row: row, dataKey: dataKey))
        }
    }

    /// The newest event's sequence number, 0 when the log is empty: where a reader that has just
    /// printed the current log starts following it.
    public func latestLogSequence() throws -> Int64 {
        try db.value(Int64.self, sql: "SELECT COALESCE(MAX(seq), 0) FROM message_events") ?? 0
    }
}
