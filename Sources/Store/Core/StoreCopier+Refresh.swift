import Foundation

/// The statements that bring a resumed copy's target up to date with a source that changed
/// between the runs (a command run in between, the unlock's own bookkeeping): rows the first
/// run copied are compared with the source's by key, and the target's are updated, added or
/// deleted to match. Tables copied by offset (no one-column key) are copied again instead.
extension StoreCopier {
    /// The name of the one-column key of a table copied by key, else nil.
    static func keyColumn(of table: Table) -> String? {
        table.keyIndex.map { table.columns[$0] }
    }

    /// The rows of `table` (whole, or only their key with `keysOnly`) after the key `lower` and
    /// up to and including `last` (either may be nil), in the database's own order. On the
    /// source, with `last` the key a cut-short copy reached: the rows it covered, as the source
    /// holds them now.
    static func rows(
        of table: Table, keysOnly: Bool = false, through last: StoreValue? = nil, after lower: StoreValue?, limit: Int,
        _ db: StoreDatabase
    ) throws -> [StoreRow] {
        guard let key = keyColumn(of: table).map(StoreCatalog.quoted) else { return [] }
        let columns = keysOnly ? key : table.columns.map(StoreCatalog.quoted).joined(separator: ", ")
        let bounds = [last.map { ("\(key) <= ?", $0) }, lower.map { ("\(key) > ?", $0) }].compactMap { $0 }
        let filter = bounds.isEmpty ? "" : " WHERE " + bounds.map(\.0).joined(separator: " AND ")
        return try db.rows(
            sql: "SELECT \(columns) FROM \(StoreCatalog.quoted(table.name))\(filter) ORDER BY \(key) LIMIT ?",
            arguments: StoreArguments(values: bounds.map(\.1) + [.integer(Int64(limit))]))
    }

    /// The keys of `table` in a range, as ``rows(of:keysOnly:through:after:limit:_:)`` reads it.
    static func keys(of table: Table, through last: StoreValue? = nil, after lower: StoreValue?, limit: Int, _ db: StoreDatabase) throws
        -> [StoreValue]
    {
        try rows(of: table, keysOnly: true, through: last, after: lower, limit: limit, db).map { $0.values[0] }
    }

    /// The rows of `table` with these keys, whole, in no particular order.
    static func rows(of table: Table, keyed keys: [StoreValue], _ db: StoreDatabase) throws -> [StoreRow] {
        guard let key = keyColumn(of: table), !keys.isEmpty else { return [] }
        let columns = table.columns.map(StoreCatalog.quoted).joined(separator: ", ")
        let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return try db.rows(
            sql: "SELECT \(columns) FROM \(StoreCatalog.quoted(table.name)) WHERE \(StoreCatalog.quoted(key)) IN (\(marks))",
            arguments: StoreArguments(values: keys))
    }

    /// Makes the target's rows with the keys of `rows` equal to them: the rows it holds with
    /// other values are updated, those it lacks inserted.
    ///
    /// - Returns: The rows updated and the rows inserted.
    static func overwrite(_ rows: [StoreRow], in table: Table, _ db: StoreDatabase) throws -> (updated: Int, inserted: Int) {
        guard let keyIndex = table.keyIndex else { return (0, 0) }
        let found = try self.rows(of: table, keyed: rows.map { $0.values[keyIndex] }, db)
        let held = Dictionary(found.map { ($0.values[keyIndex], $0.values) }, uniquingKeysWith: { first, _ in first })
        let others = table.columns.indices.filter { $0 != keyIndex }
        let assignments = others.map { "\(StoreCatalog.quoted(table.columns[$0])) = ?" }.joined(separator: ", ")
        let update =
            "UPDATE \(StoreCatalog.quoted(table.name)) SET \(assignments) WHERE \(StoreCatalog.quoted(table.columns[keyIndex])) = ?"
        var updated = 0
        var missing: [StoreRow] = []
        for row in rows {
            guard let values = held[row.values[keyIndex]] else {
                missing.append(row)
                continue
            }
            guard values != row.values, !others.isEmpty else { continue }
            try db.execute(sql: update, arguments: StoreArguments(values: others.map { row.values[$0] } + [row.values[keyIndex]]))
            updated += 1
        }
        try insertRows(missing, into: table, db)
        return (updated, missing.count)
    }

    /// Deletes the target's rows of `table` with these keys.
    static func delete(keys: [StoreValue], from table: Table, _ db: StoreDatabase) throws {
        guard let key = keyColumn(of: table) else { return }
        for value in keys {
            try db.execute(
                sql: "DELETE FROM \(StoreCatalog.quoted(table.name)) WHERE \(StoreCatalog.quoted(key)) = ?",
                arguments: StoreArguments(values: [value]))
        }
    }

    /// Empties `table` in the target and sets its copy back to the start.
    static func restart(_ table: Table, _ db: StoreDatabase) throws {
        try db.execute(sql: "DELETE FROM \(StoreCatalog.quoted(table.name))")
        try db.execute(
            sql:
                "UPDATE \(StoreCatalog.quoted(StoreCatalog.progressTable)) SET copied = 0, last_integer = NULL, last_text = NULL WHERE item = ?",
            arguments: [table.name])
    }

    /// Records that `table`'s copy stands at `position`.
    static func record(_ position: Position, of table: Table, _ db: StoreDatabase) throws {
        try db.execute(
            sql: """
                UPDATE \(StoreCatalog.quoted(StoreCatalog.progressTable)) SET copied = ?, last_integer = ?, last_text = ?
                WHERE item = ?
                """,
            arguments: StoreArguments(values: [
                .integer(Int64(position.copied)), integer(position.lastKey), text(position.lastKey), .text(table.name),
            ]))
    }
}
