import Foundation

extension StoreReader {
    /// The largest sequence number the message log has ever handed out, 0 for none: unlike
    /// ``latestLogSequence()`` it does not fall when `log prune` deletes the newest changes, so
    /// a cursor above it was never issued by this store.
    public func logSequenceHighWater() throws -> Int64 {
        try highWater(table: "message_events", column: "seq")
    }

    /// The largest message id ever handed out, 0 for none (see ``logSequenceHighWater()``).
    public func messageIDHighWater() throws -> Int64 {
        try highWater(table: "messages", column: "id")
    }

    /// The largest journal event id ever handed out, 0 for none (see ``logSequenceHighWater()``).
    public func eventIDHighWater() throws -> Int64 {
        try highWater(table: "events", column: "id")
    }

    /// The key generator's high-water mark of `table`, never below the largest key present:
    /// SQLite's AUTOINCREMENT keeps it in `sqlite_sequence`; PostgreSQL's identity sequence in
    /// `last_value` (one less while `is_called` is false, as after `store migrate` sets it).
    private func highWater(table: String, column: String) throws -> Int64 {
        let present = try db.value(Int64.self, sql: "SELECT COALESCE(MAX(\(column)), 0) FROM \(table)") ?? 0
        let generated: Int64?
        switch db.dialect {
        case .sqlite:
            generated = try db.value(Int64.self, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
        case .postgresql:
            guard let sequence = try db.value(String.self, sql: "SELECT pg_get_serial_sequence(?, ?)", arguments: [table, column])
            else { return present }
            // The name comes from the catalog, already quoted where it needs to be.
            generated = try db.value(
                Int64.self, sql: "SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM \(sequence)")
        }
        return max(present, generated ?? 0)
    }
}
