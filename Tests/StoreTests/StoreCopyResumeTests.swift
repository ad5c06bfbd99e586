import Foundation
import TestSupport
import Testing

@testable import Store

/// A copy cut short, then a source that changed before the copy runs again (`smsgw store
/// migrate` run twice, with the unlock's bookkeeping or a command in between).
@Suite("A resumed copy of a store that changed between the runs")
struct StoreCopyResumeTests {
    @Test(
        "Rows the source changed, deleted or added since the first run are copied as they are now; a key state copied before a step is not brought back",
        arguments: [(StoreBackendKind.sqlite, StoreBackendKind.sqlite), (.sqlite, .postgresql), (.postgresql, .sqlite)])
    func sourceChanged(from source: StoreBackendKind, to destination: StoreBackendKind) throws {
        if source == .postgresql || destination == .postgresql { _ = try requirePostgres() }
        let (original, store, unlocked) = try unlockedStore(on: source)
        try StoreCopyTests.fill(unlocked)
        let target = try location(destination)
        let rows = try store.readTransaction { db in
            try StoreCatalog.tables(db).reduce(0) { $0 + (try StoreCopier.count($1, db)) }
        }
        // One row per batch, stopped two rows before the end: nearly every table is copied.
        var batches = 0
        #expect(throws: StoreCopyTests.Interrupted.self) {
            _ = try store.copy(to: target.open(), batchSize: 1) { _ in
                batches += 1
                if batches == rows - 2 { throw StoreCopyTests.Interrupted() }
            }
        }

        // Between the runs: carol's ratchet steps on, bob goes, a message and an acknowledgement
        // arrive (a table copied by offset), and the next run's unlock counts its attempt.
        let carol = try unlocked.contact(named: "carol")
        try unlocked.write { tx in
            try tx.setPaired(carol, session: Data("ratchet, one step on".utf8))
            _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: carol, status: .decrypted, text: "between"))
            try tx.addPendingAcknowledgement(from: carol, epoch: 1, position: 3, ciphertext: "ACK3", at: Date())
        }
        try unlocked.removeContact(named: "bob")
        _ = try store.unlock(passphrase: TestStore.passphrase)

        let copy = try target.open()
        let copied = try store.copy(to: copy, batchSize: 2)
        #expect(copied.allSatisfy { $0.matches }, "\(copied.filter { !$0.matches })")
        for table in try store.readTransaction(StoreCatalog.tables) {
            #expect(try StoreCopyTests.rows(of: table, in: copy) == StoreCopyTests.rows(of: table, in: store), "\(table)")
        }
        let opened = try copy.unlock(passphrase: TestStore.passphrase)
        #expect(try opened.read { try $0.session(for: try $0.contact(named: "carol")) } == Data("ratchet, one step on".utf8))
        #expect(throws: (any Error).self) { try opened.contact(named: "bob") }
        #expect(try opened.log().map(\.text).contains("between"))
        withExtendedLifetime((original, target)) {}
    }

    @Test("The copy's check compares every value, not only the counts", arguments: StoreBackendKind.allCases)
    func digestSeesOneValue(_ backend: StoreBackendKind) throws {
        let (original, store, unlocked) = try unlockedStore(on: .sqlite)
        try StoreCopyTests.fill(unlocked)
        let target = try location(backend)
        let copy = try target.open()
        #expect(try store.copy(to: copy).allSatisfy { $0.matches })

        // Each table as the copy reads it: the columns of both sides (PostgreSQL's `rowid` column
        // stands for SQLite's implicit one).
        let tables = try store.readTransaction(StoreCatalog.tables).map { name in
            let columns = { (side: GatewayStore) in try side.readTransaction { db in try StoreCatalog.columns(of: name, db) } }
            let key = try store.readTransaction { db in try StoreCatalog.primaryKey(of: name, db) }
            return try StoreCopier.Table(name: name, source: try columns(store), target: try columns(copy), key: key)
        }
        func digests(_ side: GatewayStore) throws -> [String: Data] {
            try side.readTransaction { db in
                try Dictionary(uniqueKeysWithValues: tables.map { ($0.name, try StoreCopier.digest(of: $0, batchSize: 2, db)) })
            }
        }
        #expect(try digests(copy) == digests(store))
        // One value of one row (a table without triggers, so nothing else changes with it).
        try copy.writeTransaction { db in try db.execute(sql: "UPDATE otp_entries SET name = 'bank2' WHERE name = 'bank'") }
        let after = try digests(copy)
        let before = try digests(store)
        #expect(tables.map(\.name).filter { after[$0] != before[$0] } == ["otp_entries"])
        withExtendedLifetime((original, target)) {}
    }
}
