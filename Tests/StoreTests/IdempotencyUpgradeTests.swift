import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Idempotency keys written before v9-idempotency-keys-per-token")
struct IdempotencyUpgradeTests {
    @Test("Keep their hash and message under the empty token; the same key can then be saved again for a token")
    func keysKeepWorking() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.databasePath)
        try StoreSchema.migrator.migrate(queue, upTo: "v8-outbox-by-message")
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO messages (uuid, time, direction, status) VALUES (?, 1800000000, 'out', 'queued')",
                arguments: [UUID().uuidString.lowercased()])
            try db.execute(
                sql: "INSERT INTO idempotency_keys (key, request_hash, message_id, created_at) VALUES ('k1', X'0102', 1, 1800000000)")
        }
        try queue.close()
        let store = try directory.open()
        try store.pool.write { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM idempotency_keys"))
            #expect(row["token_id"] as Data == Data() && row["key"] as String == "k1")
            #expect(row["request_hash"] as Data == Data([1, 2]) && row["message_id"] as Int64 == 1)
            try db.execute(
                sql: "INSERT INTO idempotency_keys (token_id, key, request_hash, message_id, created_at) VALUES (X'09', 'k1', X'03', 1, 0)")
            try db.execute(sql: "DELETE FROM messages")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM idempotency_keys") == 0, "pruning the message drops its keys")
        }
    }

    @Test("On PostgreSQL too: the key keeps its row under the empty token, and the primary key is (token, key)")
    func keysKeepWorkingOnPostgres() throws {
        let cluster = try requirePostgres()
        let address = try cluster.freshAddress()
        let server = try PostgresServer.connect(
            socketDirectory: cluster.socketDirectory, port: cluster.port, user: cluster.user, password: nil,
            database: address.database, logger: TestStore.logger)
        defer { try? server.close() }
        let before = try #require(PostgresSchema.migrations.firstIndex { $0.name == "v9-idempotency-keys-per-token" })
        try server.writeTransaction { db in
            try db.execute(sql: "CREATE TABLE \(PostgresSchema.migrationsTable) (identifier TEXT PRIMARY KEY NOT NULL)")
            for migration in PostgresSchema.migrations[..<before] {
                for statement in migration.statements { try db.execute(sql: statement) }
                try db.execute(
                    sql: "INSERT INTO \(PostgresSchema.migrationsTable) (identifier) VALUES (?)", arguments: [migration.name])
            }
            try db.execute(
                sql: "INSERT INTO messages (uuid, time, direction, status) VALUES (?, 1800000000, 'out', 'queued')",
                arguments: [UUID().uuidString.lowercased()])
            try db.execute(
                sql:
                    "INSERT INTO idempotency_keys (key, request_hash, message_id, created_at) SELECT 'k1', ?, id, 1800000000 FROM messages",
                arguments: [Data([1, 2])])
        }
        let directory = TemporaryDirectory(prefix: "smsgw-store")
        let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        try store.writeTransaction { db in
            let row = try #require(try db.row(sql: "SELECT token_id, key, request_hash FROM idempotency_keys"))
            #expect(row["token_id"] as Data == Data() && row["key"] as String == "k1" && row["request_hash"] as Data == Data([1, 2]))
            try db.execute(
                sql:
                    "INSERT INTO idempotency_keys (token_id, key, request_hash, message_id, created_at) SELECT ?, 'k1', ?, id, 0 FROM messages",
                arguments: [Data([9]), Data([3])])
            #expect(try db.value(Int.self, sql: "SELECT COUNT(*) FROM idempotency_keys") == 2)
        }
    }
}
