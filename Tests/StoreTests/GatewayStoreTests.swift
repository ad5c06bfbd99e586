import Failures
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Opening the database")
struct GatewayStoreTests {
    @Test("A fresh file gets every migration and every table")
    func migrationsOnFreshFile() throws {
        let directory = TemporaryDirectory()
        let store = try directory.open()
        #expect(try store.appliedMigrations() == StoreSchema.migrator.migrations)
        let tables = try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        for table in StoreSchema.tables {
            #expect(tables.contains(table), "missing table \(table)")
        }
        #expect(try store.accountExists == false)
    }

    @Test("Reopening applies nothing twice and keeps data", arguments: StoreBackendKind.allCases)
    func reopen(_ backend: StoreBackendKind) throws {
        let directory = try location(backend)
        do {
            let store = try directory.open()
            _ = try store.createAccount(username: "a", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        }
        let again = try directory.open()
        #expect(try again.accountExists)
        #expect(try again.appliedMigrations() == StoreSchema.migrator.migrations)
    }

    @Test("WAL, foreign keys, secure_delete, journals in memory and the busy timeout are on for every connection")
    func pragmas() throws {
        let directory = TemporaryDirectory()
        let store = try directory.open()
        let pragmas = try store.pool.read { db in
            [
                try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
                try String.fetchOne(db, sql: "PRAGMA foreign_keys") ?? "",
                try String.fetchOne(db, sql: "PRAGMA secure_delete") ?? "",
                try String.fetchOne(db, sql: "PRAGMA temp_store") ?? "",
            ]
        }
        #expect(pragmas == ["wal", "1", "1", "2"])
        // Readers keep GRDB's own WAL busy timeout; the writer, which waits for other processes, has ours.
        let writer = try store.pool.writeWithoutTransaction { db in
            [
                try Int.fetchOne(db, sql: "PRAGMA secure_delete"), try Int.fetchOne(db, sql: "PRAGMA temp_store"),
                try Int.fetchOne(db, sql: "PRAGMA busy_timeout"),
            ]
        }
        #expect(writer == [1, 2, 15_000])
    }

    @Test("The directory is 0700 and the database, -wal and -shm are 0600")
    func permissions() throws {
        let directory = TemporaryDirectory()
        let store = try directory.open()
        _ = try store.createAccount(username: "a", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        #expect(FilePermissions.mode(of: directory.url.path) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            let path = directory.databasePath + suffix
            #expect(FileManager.default.fileExists(atPath: path), "\(path) should exist while open")
            #expect(FilePermissions.mode(of: path) == 0o600, "\(path) should be 0600")
        }
    }

    @Test("An existing database opened with loose permissions is made private")
    func tightensExistingFile() throws {
        let directory = TemporaryDirectory()
        do { _ = try directory.open() }
        chmod(directory.databasePath, 0o644)
        _ = try directory.open()
        #expect(FilePermissions.mode(of: directory.databasePath) == 0o600)
    }

    @Test("A database from a newer smsgw is refused with a configuration error")
    func newerSchemaRefused() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try directory.open()
            try store.pool.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')")
            }
        }
        #expect {
            _ = try directory.open()
        } throws: { error in
            guard case .configuration = error as? StoreError else { return false }
            return (error as? StoreError)?.category == .configuration
        }
    }

    @Test("A data directory path that is a file is a configuration error")
    func directoryIsAFile() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.deletingLastPathComponent(), withIntermediateDirectories: true
        )
        _ = FileManager.default.createFile(atPath: directory.url.path, contents: Data("x".utf8))
        #expect(throws: StoreError.self) { _ = try directory.open() }
    }
}
