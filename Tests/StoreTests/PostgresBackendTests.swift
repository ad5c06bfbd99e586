import Foundation
import TestSupport
import Testing

@testable import Store

/// What the PostgreSQL backend does differently from SQLite on purpose, and its address.
@Suite("The store on PostgreSQL: what differs on purpose")
struct PostgresBackendTests {
    @Test("A backup is refused on PostgreSQL, with the server's tools named; no file is written")
    func backupRefused() throws {
        let (location, store, _) = try unlockedStore(on: .postgresql)
        let destination = location.directory.root.appendingPathComponent("copy.sqlite")
        #expect {
            try store.backup(to: destination)
        } throws: { error in
            guard case StoreError.invalidState(let sentence) = error else { return false }
            return sentence.contains("pg_dump")
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("There is no write-ahead log of the store's to truncate, and no database file in the data directory")
    func noFiles() throws {
        let (location, store, unlocked) = try unlockedStore(on: .postgresql)
        _ = try unlocked.addContact(name: "alice", number: nil, pairingCode: Data("code".utf8))
        #expect(try store.truncateWriteAheadLog())
        try unlocked.removeContact(named: "alice")
        let files = try FileManager.default.contentsOfDirectory(atPath: location.directory.url.path)
        #expect(!files.contains { $0.hasPrefix(GatewayStore.databaseFileName) })
        #expect(store.backendName == "postgresql")
        #expect(store.location.hasPrefix("postgresql://smsgw@/"))
    }

    @Test("Over TCP with the password, as a node on another host, the store opens and works; a wrong password is refused")
    func passwordOverLoopback() throws {
        let cluster = try requirePostgres()
        let directory = TemporaryDirectory()
        var address = try cluster.freshLoopbackAddress()
        let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        let unlocked = try store.createAccount(username: "node", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        _ = try unlocked.addContact(name: "bob", number: TestStore.number("+447700900010"), pairingCode: Data())
        #expect(try unlocked.contacts().map(\.name) == ["bob"])
        #expect(!store.location.contains(cluster.password))
        address.password = "wrong"
        #expect(throws: StoreError.self) {
            _ = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        }
    }

    @Test("A URL is read in libpq's form; a password in it, another scheme or a missing part is refused")
    func addresses() throws {
        let tcp = try PostgresAddress(url: "postgresql://smsgw@db.example:6543/gateway", password: "p")
        #expect(tcp == PostgresAddress(host: "db.example", port: 6543, user: "smsgw", database: "gateway", password: "p"))
        #expect(tcp.description == "postgresql://smsgw@db.example:6543/gateway")
        let socket = try PostgresAddress(url: "postgresql://smsgw@/gateway?host=/run/postgresql", password: nil)
        #expect(socket.isUnixSocket && socket.host == "/run/postgresql" && socket.port == 5432)
        for bad in [
            "postgresql://smsgw:secret@db/gateway", "mysql://smsgw@db/gateway", "postgresql://db/gateway", "postgresql://smsgw@db/",
        ] {
            #expect(throws: StoreError.self, "\(bad)") { _ = try PostgresAddress(url: bad, password: nil) }
        }
        #expect(throws: StoreError.self) { _ = try PostgresAddress(url: "postgresql://smsgw:secret@db/gateway", password: nil) }
    }
}
