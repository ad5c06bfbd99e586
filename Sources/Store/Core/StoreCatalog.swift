import Foundation

/// What a store's tables are, read from the database's own catalog on either backend.
///
/// ``GatewayStore/copy(to:batchSize:progress:)`` copies whatever tables the schema has, never a
/// hand-kept list a later migration could leave out: the names, columns, keys and foreign keys
/// come from `sqlite_master` and its pragmas on SQLite, from `information_schema` and
/// `pg_catalog` on PostgreSQL. The migrations' own bookkeeping (`grdb_migrations`,
/// `store_migrations`) and the copy's progress table are not the store's data and are left out.
enum StoreCatalog {
    /// The table a copy records its progress in, inside the target until the copy completes.
    static let progressTable = "store_copy_progress"

    /// The store's tables, by name.
    static func tables(_ db: StoreDatabase) throws -> [String] {
        let sql =
            switch db.dialect {
            case .sqlite:
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY name"
            case .postgresql:
                """
                SELECT table_name::text FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
                """
            }
        let bookkeeping: Set = ["grdb_migrations", PostgresSchema.migrationsTable, progressTable, GatewayStore.movedTable]
        return try db.values(String.self, sql: sql).filter { !bookkeeping.contains($0) }
    }

    /// The declared columns of `table`, in their order (SQLite's implicit `rowid` is not one).
    static func columns(of table: String, _ db: StoreDatabase) throws -> [String] {
        let sql =
            switch db.dialect {
            case .sqlite: "SELECT name FROM pragma_table_info(?) ORDER BY cid"
            case .postgresql:
                """
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
                """
            }
        return try db.values(String.self, sql: sql, arguments: [table])
    }

    /// The columns of `table`'s primary key; empty when it has none.
    static func primaryKey(of table: String, _ db: StoreDatabase) throws -> [String] {
        let sql =
            switch db.dialect {
            case .sqlite: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk"
            case .postgresql:
                """
                SELECT k.column_name::text FROM information_schema.table_constraints c
                JOIN information_schema.key_column_usage k
                    ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name
                WHERE c.table_schema = current_schema() AND c.table_name = ? AND c.constraint_type = 'PRIMARY KEY'
                ORDER BY k.ordinal_position
                """
            }
        return try db.values(String.self, sql: sql, arguments: [table])
    }

    /// The tables `table`'s foreign keys refer to (itself left out).
    static func parents(of table: String, _ db: StoreDatabase) throws -> Set<String> {
        let sql =
            switch db.dialect {
            case .sqlite: "SELECT \"table\" FROM pragma_foreign_key_list(?)"
            case .postgresql:
                """
                SELECT p.relname::text FROM pg_constraint f
                JOIN pg_class t ON t.oid = f.conrelid JOIN pg_class p ON p.oid = f.confrelid
                WHERE f.contype = 'f' AND t.relname = ? AND t.relnamespace = current_schema()::regnamespace
                """
            }
        return Set(try db.values(String.self, sql: sql, arguments: [table])).subtracting([table])
    }

    /// `tables` with every table after the tables its foreign keys refer to.
    ///
    /// - Throws: ``StoreError/corrupted(_:)`` when the foreign keys form a cycle, which no
    ///   migration of the store's creates.
    static func dependencyOrder(_ tables: [String], parents: [String: Set<String>]) throws -> [String] {
        var ordered: [String] = []
        var remaining = tables
        while !remaining.isEmpty {
            let placed = Set(ordered)
            let ready = remaining.filter { (parents[$0] ?? []).subtracting([$0]).isSubset(of: placed) }
            guard !ready.isEmpty else {
                throw StoreError.corrupted(
                    "The tables \(remaining.joined(separator: ", ")) refer to each other in a cycle; the schema is not one smsgw wrote.")
            }
            ordered += ready
            remaining.removeAll { ready.contains($0) }
        }
        return ordered
    }

    /// `table`'s identity columns on PostgreSQL, whose sequences must follow copied ids.
    static func identityColumns(of table: String, _ db: StoreDatabase) throws -> [String] {
        try db.values(
            String.self,
            sql: """
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? AND is_identity = 'YES'
                """,
            arguments: [table])
    }

    /// A name quoted for a statement. The names come from the catalog, never from a user.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
