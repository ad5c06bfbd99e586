import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// A database failure keeps its cause, from SQLite's result code or PostgreSQL's SQLSTATE, so
/// that only the storage refusing (``StoreError/isStorageFailure``) counts as the store refusing
/// writes; and its sentence holds the database's words, never the statement.
@Suite("Database failures keep their cause")
struct StoreErrorCauseTests {
    @Test("SQLite: a full store, a read-only one, a broken rule and a busy one, each from a real database")
    func sqliteCauses() throws {
        let directory = TemporaryDirectory(prefix: "smsgw-cause")
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let path = directory.url.appendingPathComponent("cause.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY, b BLOB)") }
        func failure(_ body: () throws -> Void) -> StoreError? {
            #expect(throws: StoreError.self) { try StoreError.wrapping(body) }
        }

        let full = failure {
            try queue.write { db in
                try db.execute(sql: "PRAGMA max_page_count = 1")
                try db.execute(sql: "INSERT INTO t (k, b) VALUES ('big', zeroblob(65536))")
            }
        }
        #expect(full == .database("database or disk is full", cause: .full) && full?.isStorageFailure == true)

        let broken = failure {
            try queue.write { db in
                try db.execute(sql: "PRAGMA max_page_count = 1073741823")
                try db.execute(sql: "INSERT INTO t (k) VALUES ('secret-key-value')")
                try db.execute(sql: "INSERT INTO t (k) VALUES ('secret-key-value')")
            }
        }
        #expect(broken?.cause == .constraint && broken?.isStorageFailure == false)
        // A fault of smsgw, not of the disk: exit 70 and HTTP 500 "internal-fault", not an I/O error.
        #expect(broken?.category == .internalFault && full?.category == .storage)
        #expect(broken?.description.contains("secret-key-value") == false, "\(String(describing: broken))")
        #expect(broken?.description.contains("INSERT") == false, "\(String(describing: broken))")
        try queue.close()

        var configuration = Configuration()
        configuration.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        let readOnly = failure { try reader.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM t") } }
        #expect(readOnly?.cause == .readOnly && readOnly?.isStorageFailure == true, "\(String(describing: readOnly))")
        try reader.close()

        let busy = StoreError(DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked"))
        #expect(busy == .database("database is locked", cause: .busy) && !busy.isStorageFailure && busy.category == .busy)
    }

    @Test("PostgreSQL's SQLSTATE: full, read-only, I/O, damaged, unreachable are the storage; a broken rule or a busy one are not")
    func sqlStates() {
        let causes: [String?: StoreError.Cause] = [
            "53100": .full, "25006": .readOnly, "58030": .ioError, "XX001": .corrupt, "57P01": .cannotOpen,
            "08006": .cannotOpen, nil: .cannotOpen, "23505": .constraint, "23514": .constraint, "40001": .busy,
            "40P01": .busy, "42P01": .other,
        ]
        for (state, cause) in causes {
            #expect(StoreError.Cause.postgres(sqlState: state) == cause, "\(String(describing: state))")
        }
        #expect([StoreError.Cause.full, .readOnly, .ioError, .corrupt, .cannotOpen].allSatisfy { $0.isStorage })
        #expect(![StoreError.Cause.busy, .constraint, .other].contains { $0.isStorage })
    }

    @Test("PostgreSQL: a server that takes no writes (25006) is read-only, a duplicate key (23505) a broken rule")
    func postgresCauses() throws {
        let cluster = try requirePostgres()
        let server = try PostgresServer.connect(
            socketDirectory: cluster.socketDirectory, port: cluster.port, user: cluster.user, password: nil,
            database: cluster.database, logger: quietLogger("postgres"))
        defer { try? server.close() }
        let table = "causes_\(UInt32.random(in: 0...UInt32.max))"
        try server.writeTransaction { db in try db.execute(sql: "CREATE TABLE \(table) (k TEXT PRIMARY KEY)") }
        let insert = "INSERT INTO \(table) (k) VALUES ('secret-key-value')"
        let broken = #expect(throws: StoreError.self) {
            try server.writeTransaction { db in
                try db.execute(sql: insert)
                try db.execute(sql: insert)
            }
        }
        let words = try #require(broken?.databaseFailure)
        #expect(broken?.cause == .constraint && words.contains("SQLSTATE 23505"), "\(words)")
        #expect(broken?.isStorageFailure == false && !words.contains("secret-key-value") && !words.contains("INSERT"))

        let readOnly = #expect(throws: StoreError.self) {
            try server.writeTransaction { db in
                try db.execute(sql: "SET TRANSACTION READ ONLY")
                try db.execute(sql: insert)
            }
        }
        let readOnlyWords = try #require(readOnly?.databaseFailure)
        #expect(readOnly?.cause == .readOnly && readOnlyWords.contains("SQLSTATE 25006"), "\(readOnlyWords)")
        #expect(readOnly?.isStorageFailure == true && readOnly?.description.contains("point the store's url at the primary") == true)
        try server.writeTransaction { db in try db.execute(sql: "DROP TABLE \(table)") }
    }
}
