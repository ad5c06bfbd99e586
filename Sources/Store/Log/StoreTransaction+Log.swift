import Foundation

extension StoreReader {
    /// Logged messages, oldest first, texts decrypted.
    ///
    /// - Parameters:
    ///   - contact: Only this contact's messages, or nil for all.
    ///   - limit: At most this many entries.
    ///   - afterId: When given, the first `limit` entries with a greater id (for `--follow`);
    ///     otherwise the newest `limit` entries.
    public func log(contact: Contact? = nil, limit: Int = 100, afterId: Int64? = nil) throws -> [LogEntry] {
        guard limit > 0 else { return [] }
        var conditions: [String] = []
        var arguments: StoreArguments = []
        if let contact {
            conditions.append("m.contact_id = ?")
            arguments.append(contentsOf: [contact.id.storeString])
        }
        if let afterId {
            conditions.append("m.id > ?")
            arguments.append(contentsOf: [afterId])
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        // Newest-first to apply the limit, re-sorted oldest-first, unless following.
        let order = afterId == nil ? "DESC" : "ASC"
        arguments.append(contentsOf: [limit])
        let rows = try db.rows(
            sql: "\(LogEntry.selection) \(filter) ORDER BY m.id \(order) LIMIT ?", arguments: arguments
        )
        let entries = try rows.map { try LogEntry(row: $0, dataKey: dataKey) }
        return afterId == nil ? entries.reversed() : entries
    }

    /// One logged message.
    public func logEntry(id: Int64) throws -> LogEntry {
        guard let row = try db.row(sql: "\(LogEntry.selection) WHERE m.id = ?", arguments: [id]) else {
            throw StoreError.notFound(.message(id: id))
        }
        return try LogEntry(row: row, dataKey: dataKey)
    }
}

extension StoreTransaction {
    /// Adds a message to the log, its text encrypted, and returns its id.
    @discardableResult
    public func appendLog(_ entry: NewLogEntry) throws -> Int64 {
        let uuid = UUID.random()
        let sealed = try entry.text.map { text throws(StoreError) in try dataKey.seal(text, for: .messageText(uuid)) }
        return try db.insert(
            sql: """
                INSERT INTO messages (uuid, time, direction, contact_id, remote_number, status, text,
                    ciphertext, error, fingerprint)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
            arguments: [
                uuid.storeString, entry.time.timeIntervalSince1970, entry.direction.rawValue,
                entry.contactID?.storeString, entry.remoteNumber, entry.status.rawValue, sealed,
                entry.ciphertext, entry.error, entry.fingerprint.map(dataKey.fingerprint),
            ]
        )
    }

    /// Records the number a logged incoming message came from and a note about it (kept after any
    /// note the row has): a contact's message from a number that is not the contact's.
    public func setLogSender(_ id: Int64, number: String, note: String) throws {
        try db.execute(
            sql: "UPDATE messages SET remote_number = ?, error = COALESCE(error || ' ', '') || ? WHERE id = ?",
            arguments: [number, note, id])
        if db.changesCount == 0 { throw StoreError.notFound(.message(id: id)) }
    }

    /// Changes a logged message's status and, when given, its error sentence.
    public func setLogStatus(_ id: Int64, status: MessageStatus, error: String? = nil) throws {
        try db.execute(
            sql: "UPDATE messages SET status = ?, error = COALESCE(?, error) WHERE id = ?",
            arguments: [status.rawValue, error, id]
        )
        if db.changesCount == 0 {
            throw StoreError.notFound(.message(id: id))
        }
    }
}

extension UnlockedStore {
    /// Logged messages, oldest first; see ``StoreReader/log(contact:limit:afterId:)``.
    public func log(contact: Contact? = nil, limit: Int = 100, afterId: Int64? = nil) throws -> [LogEntry] {
        try read { try $0.log(contact: contact, limit: limit, afterId: afterId) }
    }
}
