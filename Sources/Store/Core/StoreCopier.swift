import Foundation

/// The statements of ``GatewayStore/copy(to:batchSize:progress:)``, each inside a transaction
/// the copy opens on the source or the target.
enum StoreCopier {
    /// One table as the copy moves it.
    struct Table: Sendable {
        let name: String
        /// The columns read and written: the declared columns, and SQLite's implicit `rowid`
        /// where the PostgreSQL side declares a column of that name to stand for it.
        let columns: [String]
        /// The source's order for its rows (its primary key, or every column without one), the
        /// same on every run so that a resumed copy continues after the rows already copied.
        let order: [String]
        /// The position in `columns` of a one-column primary key: batches then start after the
        /// last key copied (an index seek) instead of skipping the rows copied so far.
        let keyIndex: Int?

        /// - Throws: ``StoreError/configuration(_:)`` when a column other than `rowid` is on
        ///   one side only.
        init(name: String, source: [String], target: [String], key: [String]) throws {
            let columns = source + target.filter { !source.contains($0) }
            let oneSided = columns.filter { !(source.contains($0) && target.contains($0)) && $0 != "rowid" }
            guard oneSided.isEmpty else {
                throw StoreError.configuration(
                    "The source and the target differ in the columns \(oneSided.joined(separator: ", ")) of \(name); both must be stores of this smsgw."
                )
            }
            self.name = name
            self.columns = columns
            self.order = key.isEmpty ? columns : key
            self.keyIndex = key.count == 1 ? columns.firstIndex(of: key[0]) : nil
        }

        /// Where the copy stands once `rows`, read at `position`, are copied.
        func position(after rows: [StoreRow], from position: Position) -> Position {
            let last = keyIndex.flatMap { index in rows.last?.values[index] }
            let key: StoreValue? =
                switch last {
                case .integer, .text: last
                default: nil
                }
            return Position(copied: position.copied + rows.count, lastKey: key)
        }
    }

    /// How far a table's copy has got: the rows copied and, for a one-column integer or text
    /// key, the last key copied.
    struct Position: Sendable {
        var copied = 0
        var lastKey: StoreValue?
    }

    /// The tables of one copy, parents first.
    struct Plan: Sendable {
        let tables: [Table]
        /// Each table's parents by its foreign keys (the source's).
        let parents: [String: Set<String>]
    }

    /// One side's tables: their declared columns, primary keys and parents.
    struct Schema {
        var columns: [String: [String]] = [:]
        var keys: [String: [String]] = [:]
        var parents: [String: Set<String>] = [:]

        init(_ db: StoreDatabase) throws {
            for table in try StoreCatalog.tables(db) {
                columns[table] = try StoreCatalog.columns(of: table, db)
                keys[table] = try StoreCatalog.primaryKey(of: table, db)
                parents[table] = try StoreCatalog.parents(of: table, db)
            }
        }
    }

    /// Starts a copy into an empty target, or finds the one begun: the rows already copied
    /// per table. Starting records every table at 0 and suspends the target's triggers.
    ///
    /// - Throws: ``StoreError/alreadyExists(_:)`` when the target holds rows and no copy was begun.
    static func begin(_ plan: Plan, _ db: StoreDatabase) throws -> [String: Position] {
        let progress = StoreCatalog.quoted(StoreCatalog.progressTable)
        if try hasProgressTable(db) {
            let rows = try db.rows(sql: "SELECT item, copied, last_integer, last_text FROM \(progress)")
            return Dictionary(
                rows.map { row in
                    let key = (row["last_integer"] as Int64?).map(StoreValue.integer) ?? (row["last_text"] as String?).map(StoreValue.text)
                    return (row["item"] as String, Position(copied: row["copied"], lastKey: key))
                }
            ) { first, _ in first }
        }
        for table in plan.tables {
            let rows = try count(table.name, db)
            guard rows == 0 else {
                throw StoreError.alreadyExists(
                    "The target database is not empty (\(table.name) holds \(rows) \(rows == 1 ? "row" : "rows")); copy a store only into an empty database or data directory."
                )
            }
        }
        try db.execute(
            sql: """
                CREATE TABLE \(progress) (
                    item TEXT PRIMARY KEY NOT NULL, copied BIGINT NOT NULL, last_integer BIGINT, last_text TEXT, definition TEXT)
                """)
        for table in plan.tables {
            try db.execute(sql: "INSERT INTO \(progress) (item, copied) VALUES (?, 0)", arguments: [table.name])
        }
        switch db.dialect {
        case .sqlite:
            // SQLite cannot switch a trigger off: each is dropped, its text kept to recreate it.
            for trigger in try db.rows(sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name") {
                let name: String = trigger["name"]
                try db.execute(
                    sql: "INSERT INTO \(progress) (item, copied, definition) VALUES (?, 0, ?)",
                    arguments: ["trigger " + name, trigger["sql"] as String])
                try db.execute(sql: "DROP TRIGGER \(StoreCatalog.quoted(name))")
            }
        case .postgresql:
            for table in plan.tables {
                try db.execute(sql: "ALTER TABLE \(StoreCatalog.quoted(table.name)) DISABLE TRIGGER USER")
            }
        }
        return [:]
    }

    /// The next rows of `table` after `position`, in the copy's order.
    static func rows(of table: Table, after position: Position, limit: Int, _ db: StoreDatabase) throws -> [StoreRow] {
        let columns = table.columns.map(StoreCatalog.quoted).joined(separator: ", ")
        let order = table.order.map(StoreCatalog.quoted).joined(separator: ", ")
        let select = "SELECT \(columns) FROM \(StoreCatalog.quoted(table.name))"
        if let lastKey = position.lastKey, position.copied > 0 {
            return try db.rows(
                sql: "\(select) WHERE \(order) > ? ORDER BY \(order) LIMIT ?",
                arguments: StoreArguments(values: [lastKey, .integer(Int64(limit))]))
        }
        return try db.rows(sql: "\(select) ORDER BY \(order) LIMIT ? OFFSET ?", arguments: [limit, position.copied])
    }

    /// Inserts `rows` into `table` and records the position `reached`, in one transaction.
    static func insert(_ rows: [StoreRow], into table: Table, reaching reached: Position, _ db: StoreDatabase) throws {
        try insertRows(rows, into: table, db)
        try record(reached, of: table, db)
    }

    /// Inserts `rows` into `table`, every column as the source holds it.
    static func insertRows(_ rows: [StoreRow], into table: Table, _ db: StoreDatabase) throws {
        let columns = table.columns.map(StoreCatalog.quoted).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        let sql = "INSERT INTO \(StoreCatalog.quoted(table.name)) (\(columns)) VALUES (\(placeholders))"
        for row in rows {
            try db.execute(sql: sql, arguments: StoreArguments(values: row.values))
        }
    }

    /// Ends a copy: the triggers back, the identity sequences past the copied ids, the
    /// progress table gone. Does nothing when no copy is under way.
    static func finish(tables: [String], _ db: StoreDatabase) throws {
        guard try hasProgressTable(db) else { return }
        let progress = StoreCatalog.quoted(StoreCatalog.progressTable)
        switch db.dialect {
        case .sqlite:
            for definition in try db.values(String.self, sql: "SELECT definition FROM \(progress) ORDER BY item") {
                try db.execute(sql: definition)
            }
        case .postgresql:
            for table in tables {
                let name = StoreCatalog.quoted(table)
                try db.execute(sql: "ALTER TABLE \(name) ENABLE TRIGGER USER")
                for column in try StoreCatalog.identityColumns(of: table, db) {
                    try db.execute(
                        sql:
                            "SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT max(\(StoreCatalog.quoted(column))) FROM \(name)), 0) + 1, false)",
                        arguments: [name, column])
                }
            }
        }
        try db.execute(sql: "DROP TABLE \(progress)")
    }

    static func integer(_ value: StoreValue?) -> StoreValue {
        if case .integer = value { return value ?? .null }
        return .null
    }

    static func text(_ value: StoreValue?) -> StoreValue {
        if case .text = value { return value ?? .null }
        return .null
    }

    /// The rows `table` holds.
    static func count(_ table: String, _ db: StoreDatabase) throws -> Int {
        try db.value(Int.self, sql: "SELECT count(*) FROM \(StoreCatalog.quoted(table))") ?? 0
    }

    /// Whether a copy into this database was begun and has not finished.
    static func hasProgressTable(_ db: StoreDatabase) throws -> Bool {
        let sql =
            switch db.dialect {
            case .sqlite: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
            case .postgresql:
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?"
            }
        return try db.value(Int.self, sql: sql, arguments: [StoreCatalog.progressTable]) ?? 0 > 0
    }
}
