import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// The schema on both backends: the same migrations by name, and after them the same tables,
/// columns (name and kind), indexes and triggers, so a migration that forgets one side fails here.
@Suite("The schema on SQLite and PostgreSQL")
struct PostgresSchemaTests {
    /// A column's kind, the same word on both backends.
    private static let kinds = [
        "INTEGER": "integer", "bigint": "integer", "REAL": "real", "double precision": "real", "TEXT": "text",
        "text": "text", "BLOB": "blob", "bytea": "blob",
    ]

    /// What a schema holds, by table: columns ("name kind"), indexes ("name(columns)") and triggers.
    private struct Shape: Equatable, CustomStringConvertible {
        var columns: [String: Set<String>] = [:]
        var indexes: Set<String> = []
        var triggers: Set<String> = []

        var description: String {
            "columns \(columns.sorted { $0.key < $1.key }), indexes \(indexes.sorted()), triggers \(triggers.sorted())"
        }
    }

    @Test("Every SQLite migration has its PostgreSQL form, by the same name, in the same order")
    func sameMigrationNames() {
        #expect(PostgresSchema.migrations.map(\.name) == StoreSchema.migrator.migrations)
    }

    @Test("After migrating, both backends report the same migrations and have the same tables, columns, indexes and triggers")
    func sameShape() throws {
        let cluster = try requirePostgres()
        let directory = TemporaryDirectory()
        let sqlite = try directory.open()
        let postgres = try GatewayStore.open(postgres: try cluster.freshAddress(), directory: directory.url, logger: TestStore.logger)
        #expect(try postgres.appliedMigrations() == StoreSchema.migrator.migrations)
        #expect(try sqlite.appliedMigrations() == postgres.appliedMigrations())
        let sqliteShape = try shape(sqlite: sqlite)
        let postgresShape = try shape(postgres: postgres)
        #expect(Set(sqliteShape.columns.keys) == Set(StoreSchema.tables))
        for table in StoreSchema.tables {
            #expect(sqliteShape.columns[table] == postgresShape.columns[table], "table \(table)")
        }
        #expect(sqliteShape.indexes == postgresShape.indexes)
        #expect(sqliteShape.triggers == postgresShape.triggers)
    }

    @Test("Opening the same database again, or from a second node at once, applies nothing twice")
    func migratingTwiceAndAtOnce() async throws {
        let cluster = try requirePostgres()
        let directory = TemporaryDirectory()
        let address = try cluster.freshAddress()
        async let first = Task.detached { try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger) }
            .value
        async let second = Task.detached { try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger) }
            .value
        let stores = try await [first, second]
        let again = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        for store in stores + [again] {
            #expect(try store.appliedMigrations() == StoreSchema.migrator.migrations)
        }
    }

    @Test("A database migrated by a newer smsgw is refused")
    func newerRefused() throws {
        let cluster = try requirePostgres()
        let directory = TemporaryDirectory()
        let address = try cluster.freshAddress()
        let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        try store.writeTransaction { db in
            try db.execute(sql: "INSERT INTO store_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        #expect(throws: StoreError.self) {
            try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        }
    }

    private func shape(sqlite store: GatewayStore) throws -> Shape {
        try store.pool.read { db in
            var shape = Shape()
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
            for table in tables {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
                shape.columns[table] = Set(
                    columns.map { row in "\(row["name"] as String) \(Self.kinds[row["type"] as String] ?? row["type"])" })
            }
            for row in try Row.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
                let name: String = row["name"]
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
                shape.indexes.insert("\(name)(\(columns.joined(separator: ",")))")
            }
            shape.triggers = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'"))
            return shape
        }
    }

    private func shape(postgres store: GatewayStore) throws -> Shape {
        try store.readTransaction { db in
            var shape = Shape()
            let columns = try db.rows(
                sql: """
                    SELECT table_name::TEXT AS t, column_name::TEXT AS c, data_type::TEXT AS k FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name::TEXT NOT IN ('store_migrations', 'store_moved')
                    """)
            for row in columns {
                let column: String = row["c"]
                // The identity column standing for SQLite's implicit rowid (the vault's tables).
                if column == "rowid" { continue }
                let kind: String = row["k"]
                shape.columns[row["t"], default: []].insert("\(column) \(Self.kinds[kind] ?? kind)")
            }
            let indexes = try db.rows(
                sql: """
                    SELECT i.relname::TEXT AS name, array_to_string(ARRAY(
                        SELECT a.attname::TEXT FROM unnest(x.indkey::SMALLINT[]) WITH ORDINALITY AS k(number, place)
                        JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.number ORDER BY k.place), ',') AS columns
                    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
                    WHERE t.relnamespace = current_schema()::REGNAMESPACE
                        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
                    """)
            shape.indexes = Set(indexes.map { row in "\(row["name"] as String)(\(row["columns"] as String))" })
            shape.triggers = Set(try db.values(String.self, sql: "SELECT tgname::TEXT FROM pg_trigger WHERE NOT tgisinternal"))
            return shape
        }
    }
}
