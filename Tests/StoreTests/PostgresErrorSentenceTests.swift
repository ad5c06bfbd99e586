import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// A failed database in words for its backend: PostgreSQL's sentence sends the operator to the
/// server, the connection and the server's log; SQLite's to the disk and the data directory.
@Suite("Database failures in the backend's words")
struct PostgresErrorSentenceTests {
    @Test("A stopped server: the PostgreSQL sentence (the server, the connection, its log), never the disk")
    func stoppedServer() async throws {
        _ = try requirePostgres()
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let directory = TemporaryDirectory(prefix: "smsgw-store")
        let address = try cluster.freshAddress()
        let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        let unlocked = try store.createAccount(username: "field-user", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        cluster.stop()

        let inUse = #expect(throws: StoreError.self) { _ = try unlocked.contacts() }
        let opening = #expect(throws: StoreError.self) {
            _ = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        }
        for error in [inUse, opening].compactMap({ $0 }) {
            let sentence = error.description
            #expect(sentence.contains("PostgreSQL server") && sentence.contains("the server's log"), "\(sentence)")
            #expect(!sentence.contains("check the disk"), "\(sentence)")
            #expect(error.category == .storage)
        }
        #expect(opening?.description.contains("cannot connect to the PostgreSQL server") == true)

        // The notices' listener says why it cannot connect, not that "an error" happened.
        let log = CapturedLog()
        let notices = try #require(store.notices(logger: log.logger))
        let listening = Task { await notices.run {} }
        let warning = try #require(try await log.line(containing: "Lost the store's notices"))
        listening.cancel()
        await listening.value
        #expect(warning.contains("cannot connect to the PostgreSQL server"), "\(warning)")
        #expect(!warning.contains("PSQLError") && !warning.contains("Generic description"), "\(warning)")
    }

    @Test("The notices' listener cut by the server logs the server's message and SQLSTATE")
    func lostListenerLogsTheServersWords() async throws {
        let cluster = try requirePostgres()
        let (location, store, _) = try unlockedStore(on: .postgresql)
        let log = CapturedLog()
        let notices = try #require(store.notices(logger: log.logger))
        let listening = Task { await notices.run {} }
        defer { listening.cancel() }
        // Its last statement: listening on both channels (cut between the two, it has no server's words to give).
        let listener = "FROM pg_stat_activity WHERE datname = '\(try #require(location.address?.database))' AND query ILIKE 'LISTEN%'"
        try await waitFor("the listener to listen on both channels") {
            try cluster.psql("SELECT count(*) \(listener) AND query ILIKE '%smsgw_commits%'") == ["1"]
        }
        try cluster.psql("SELECT pg_terminate_backend(pid) \(listener)")
        let warning = try #require(try await log.line(containing: "Lost the store's notices"))
        listening.cancel()
        await listening.value
        #expect(warning.contains("terminating connection due to administrator command (SQLSTATE 57P01)"), "\(warning)")
        #expect(!warning.contains("PSQLError") && !warning.contains("Generic description"), "\(warning)")
    }

    @Test("SQLite's failure in its own words: the disk and the data directory")
    func sqliteUnchanged() {
        let error = StoreError(DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error"))
        #expect(
            error.description
                == "The disk failed a read or a write of the database (disk I/O error); check the disk and the system's log, then try again."
        )
        #expect(error.category == .storage)
        let other = StoreError(DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: t"))
        #expect(
            other.description == "The database reported an error (no such table: t); check the disk and the data directory, then try again."
        )
    }
}
