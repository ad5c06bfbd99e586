public import Foundation

/// One status a logged message took, from the log's change feed (``LogEvent``).
public struct MessageStateChange: Sendable, Hashable {
    /// The feed's cursor for this change.
    public var sequence: Int64
    /// The status from this change on.
    public var status: MessageStatus
    /// When the change was committed (for the first, when the message was logged).
    public var time: Date
}

extension StoreReader {
    /// Every status the message with this id took, oldest first: the first is the status it was
    /// logged with (`queued`, `decrypted`, …), each later one a change (`sent`, `delivered`, …).
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when no message has the id (or it was pruned).
    public func stateChanges(ofMessage id: Int64) throws -> [MessageStateChange] {
        let rows = try db.rows(sql: "SELECT seq, status, time FROM message_events WHERE message_id = ? ORDER BY seq", arguments: [id])
        guard !rows.isEmpty else { throw StoreError.notFound(.message(id: id)) }
        return rows.map { row in
            MessageStateChange(
                sequence: row["seq"], status: MessageStatus(rawValue: row["status"]),
                time: Date(timeIntervalSince1970: row["time"]))
        }
    }
}
