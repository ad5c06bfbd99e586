import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("The store's statements on PostgreSQL, through the same seam and the same texts")
struct PostgresStatementTests {
    private let table = "kinds_\(UInt32.random(in: 0...UInt32.max))"

    private func server(_ cluster: PostgresCluster) throws -> PostgresServer {
        try PostgresServer.connect(
            socketDirectory: cluster.socketDirectory, port: cluster.port, user: cluster.user, password: nil,
            database: cluster.database, logger: quietLogger("postgres"))
    }

    @Test("Each kind of value binds and reads back, NULL as nil, and an insert returns its new id")
    func valuesRoundTrip() throws {
        let server = try server(try requirePostgres())
        defer { try? server.close() }
        let ids = try server.writeTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE \(table) (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, i BIGINT,
                        r DOUBLE PRECISION, t TEXT, b BYTEA, n TEXT)
                    """)
            return try KindSamples.insert(into: table, db)
        }
        try server.readTransaction { db in try KindSamples.check(db, table: table, ids: ids) }
    }

    @Test("Changes counts, ON CONFLICT DO NOTHING, and a throwing transaction leaves nothing behind")
    func changesAndRollback() throws {
        let server = try server(try requirePostgres())
        defer { try? server.close() }
        try server.writeTransaction { db in
            try db.execute(sql: "CREATE TABLE \(table) (fingerprint TEXT PRIMARY KEY, received_at DOUBLE PRECISION NOT NULL)")
        }
        let insert = "INSERT INTO \(table) (fingerprint, received_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
        let counts = try server.writeTransaction { db in
            try db.execute(sql: insert, arguments: ["a", 1.0])
            let first = db.changesCount
            try db.execute(sql: insert, arguments: ["a", 2.0])
            return (first, db.changesCount)
        }
        #expect(counts == (1, 0))
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try server.writeTransaction { db in
                try db.execute(sql: insert, arguments: ["b", 1.0])
                throw Refused()
            }
        }
        #expect(try server.readTransaction { db in try db.values(String.self, sql: "SELECT fingerprint FROM \(table)") } == ["a"])
    }

    @Test("A write that read a row another transaction changed since fails as busy, as SQLite's waiting writer would not")
    func serialisable() throws {
        let cluster = try requirePostgres()
        let server = try server(cluster)
        let other = try self.server(cluster)
        defer {
            try? server.close()
            try? other.close()
        }
        try server.writeTransaction { db in
            try db.execute(sql: "CREATE TABLE \(table) (id BIGINT PRIMARY KEY, v BIGINT NOT NULL)")
            try db.execute(sql: "INSERT INTO \(table) (id, v) VALUES (1, 0)")
        }
        let error = #expect(throws: StoreError.self) {
            try server.writeTransaction { db in
                let read = try db.value(Int64.self, sql: "SELECT v FROM \(table) WHERE id = 1")
                try other.writeTransaction { db in try db.execute(sql: "UPDATE \(table) SET v = v + 1 WHERE id = 1") }
                try db.execute(sql: "UPDATE \(table) SET v = ? WHERE id = 1", arguments: [(read ?? 0) + 1])
            }
        }
        guard case .server(_, let cause) = error else {
            Issue.record("Expected a server error, got \(String(describing: error))")
            return
        }
        #expect(cause == .busy)
        #expect(try server.readTransaction { db in try db.value(Int64.self, sql: "SELECT v FROM \(table)") } == 1)
    }
}
