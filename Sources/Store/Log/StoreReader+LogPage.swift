import Foundation

extension StoreReader {
    /// Logged messages past `afterId` in the listing's order: oldest first, those with a greater
    /// id; `newestFirst`, those with a smaller id (any for 0), newest first. New messages take
    /// higher ids, so they never shift a page of either listing: oldest first they come after
    /// its last page, newest first they stay before its first.
    ///
    /// - Parameters:
    ///   - selection: Which messages: of a contact, a direction, a status (the message's now).
    ///   - afterId: The last id of the previous page (0 for the first).
    ///   - newestFirst: Whether the listing goes from the newest message towards older ones.
    ///   - limit: At most this many.
    public func logPage(_ selection: LogSelection, afterId: Int64, newestFirst: Bool = false, limit: Int) throws -> [LogEntry] {
        let statement = Self.logPageStatement(selection, afterId: afterId, newestFirst: newestFirst, limit: limit)
        return try db.rows(sql: statement.sql, arguments: statement.arguments).map { try LogEntry(row: $0, dataKey: dataKey) }
    }

    /// The statement ``logPage(_:afterId:newestFirst:limit:)`` runs. A status is read from the
    /// index `messages_status (status, id)`, in the listing's order, not by walking the whole log.
    static func logPageStatement(
        _ selection: LogSelection, afterId: Int64, newestFirst: Bool, limit: Int
    ) -> (sql: String, arguments: StoreArguments) {
        let selected = selection.conditions(statusColumn: "m.status")
        let conditions = [newestFirst && afterId > 0 ? "m.id < ?" : "m.id > ?"] + selected.sql
        let arguments: StoreArguments = [newestFirst ? max(afterId, 0) : afterId] + selected.arguments + [limit]
        let order = newestFirst ? "DESC" : "ASC"
        return ("\(LogEntry.selection) WHERE \(conditions.joined(separator: " AND ")) ORDER BY m.id \(order) LIMIT ?", arguments)
    }

    /// The outbox rows that carry the message with this id (one per SMS), oldest first.
    public func outboxItems(ofMessage id: Int64) throws -> [OutboxItem] {
        try db.rows(sql: Self.outboxOfMessage, arguments: [id]).map(OutboxItem.init(row:))
    }

    /// ``messageCounts()``'s statement; the plan test reads it.
    static let messageCountsStatement =
        "SELECT direction, status, COUNT(*) AS n FROM messages GROUP BY direction, status ORDER BY direction, status"

    private static let outboxOfMessage = "SELECT \(OutboxItem.columns) FROM outbox WHERE message_id = ? ORDER BY id"

    /// How many messages are logged in each direction and status, from `messages_status_direction_contact`
    /// (`v15-count-indexes`) rather than every message's row.
    public func messageCounts() throws -> [(direction: MessageDirection, status: MessageStatus, count: Int)] {
        try db.rows(sql: Self.messageCountsStatement)
            .compactMap { row in
                guard let direction = MessageDirection(rawValue: row["direction"]) else { return nil }
                return (direction, MessageStatus(rawValue: row["status"]), row["n"])
            }
    }
}

extension StoreReader {
    /// The outbox's texts by how long each took from queued to submitted: for each bound (in
    /// seconds, ascending) how many took at most that long, with the count and the sum of all,
    /// as a Prometheus histogram is written.
    public func submitDelays(bounds: [Double]) throws -> (atMost: [Int], count: Int, sum: Double) {
        // A comparison sums as 0 or 1 on SQLite only: PostgreSQL has no SUM of booleans.
        let buckets = bounds.map { "SUM(CASE WHEN sent_at - created_at <= \($0) THEN 1 ELSE 0 END)" }.joined(separator: ", ")
        let row = try db.row(
            sql: """
                SELECT COUNT(*) AS n, COALESCE(SUM(sent_at - created_at), 0) AS total\(bounds.isEmpty ? "" : ", " + buckets)
                FROM outbox WHERE kind = 'text' AND sent_at IS NOT NULL
                """)
        guard let row else { return (bounds.map { _ in 0 }, 0, 0) }
        let atMost = bounds.indices.map { index in (row[index + 2] as Int?) ?? 0 }
        return (atMost, row["n"], row["total"])
    }
}
