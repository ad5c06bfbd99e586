import Foundation
import TestSupport
import Testing

@testable import Store

/// Copying a store between the backends (`smsgw store migrate`): every table, row for row.
@Suite("Copying a store from SQLite to PostgreSQL and back")
struct StoreCopyTests {
    /// A copy cut short on purpose by the progress callback.
    struct Interrupted: Error {}

    @Test("SQLite → PostgreSQL → SQLite: every table of the schema equal row for row, the secrets open, the copy usable")
    func roundTrip() throws {
        _ = try requirePostgres()
        let (original, store, unlocked) = try unlockedStore(on: .sqlite)
        try Self.fill(unlocked)
        let middle = try location(.postgresql)
        let server = try middle.open()
        let there = try store.copy(to: server, batchSize: 2)
        #expect(there.allSatisfy { $0.matches })
        let back = try location(.sqlite)
        let returned = try back.open()
        let home = try server.copy(to: returned)
        #expect(home.allSatisfy { $0.matches })

        // The table list is the schema's: every table a migration creates is copied and compared.
        let tables = try store.readTransaction(StoreCatalog.tables)
        #expect(Set(there.map(\.table)) == Set(tables) && Set(home.map(\.table)) == Set(tables))
        #expect(try returned.readTransaction(StoreCatalog.tables) == tables)
        for table in tables {
            let rows = try Self.rows(of: table, in: store)
            #expect(try Self.rows(of: table, in: server) == rows, "\(table) on PostgreSQL")
            #expect(try Self.rows(of: table, in: returned) == rows, "\(table) back on SQLite")
        }
        let filled = tables.filter { table in (try? Self.rows(of: table, in: store).isEmpty) == false }
        #expect(filled == tables, "tables without a sample row: \(Set(tables).subtracting(filled).sorted())")

        // SQLite's implicit rowid, PostgreSQL's column of that name: the vault's order survives.
        for table in ["vault_items", "vault_history", "vault_parts"] {
            let order = "SELECT rowid FROM \(table) ORDER BY id"
            let ids = try store.readTransaction { db in try db.values(Int64.self, sql: order) }
            #expect(try server.readTransaction { db in try db.values(Int64.self, sql: order) } == ids, "\(table)")
            #expect(try returned.readTransaction { db in try db.values(Int64.self, sql: order) } == ids, "\(table)")
        }

        for copy in [server, returned] {
            let opened = try copy.unlock(passphrase: TestStore.passphrase)
            #expect(try opened.checkDecryption() == DecryptionCheck(ratchetStates: 1, logTexts: 3, vaultItems: 2))
            #expect(try opened.log().map(\.text) == unlocked.log().map(\.text))
            #expect(try opened.read { try $0.session(for: try $0.contact(named: "carol")) } == Data("ratchet".utf8))
            #expect(try opened.otpEntry(named: "bank").secret == Data("otp-secret".utf8))
            // New rows take ids after the copied ones: the sequences followed.
            let next = try opened.write { tx in
                try tx.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "+1555", status: .plain, text: "new"))
            }
            #expect(next > (try unlocked.log().map(\.id).max() ?? 0))
        }
        withExtendedLifetime((original, middle, back)) {}
    }

    @Test(
        "A copy stopped after some batches resumes where it stopped, without a row twice, in either direction",
        arguments: [(StoreBackendKind.sqlite, 1), (.sqlite, 3), (.postgresql, 2), (.postgresql, 30)])
    func resumed(from source: StoreBackendKind, after batches: Int) throws {
        _ = try requirePostgres()
        let (original, store, unlocked) = try unlockedStore(on: source)
        try Self.fill(unlocked)
        let target = try location(source == .sqlite ? .postgresql : .sqlite)
        let copy = try target.open()
        var seen = 0
        #expect(throws: Interrupted.self) {
            _ = try store.copy(to: copy, batchSize: 1) { _ in
                seen += 1
                if seen == batches { throw Interrupted() }
            }
        }
        #expect(try copy.readTransaction(StoreCopier.hasProgressTable))
        // Opened again as a rerun would: the progress table is still there and says where.
        let reopened = try target.open()
        let copied = try store.copy(to: reopened, batchSize: 1)
        #expect(copied.allSatisfy { $0.matches }, "\(copied.filter { !$0.matches })")
        for table in try store.readTransaction(StoreCatalog.tables) {
            #expect(try Self.rows(of: table, in: reopened) == Self.rows(of: table, in: store), "\(table)")
        }
        #expect(try reopened.readTransaction(StoreCopier.hasProgressTable) == false)
        // The triggers are back: a new message writes its events as before the copy.
        let opened = try reopened.unlock(passphrase: TestStore.passphrase)
        let events = try reopened.readTransaction { db in try StoreCopier.count("events", db) }
        _ = try opened.write { tx in
            try tx.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "+1555", status: .decrypted, text: "new"))
        }
        #expect(try reopened.readTransaction { db in try StoreCopier.count("events", db) } > events)
        withExtendedLifetime((original, target)) {}
    }

    @Test(
        "The copy is checked with the source's unlocked keys; a store of another account is refused", arguments: StoreBackendKind.allCases)
    func checkedWithTheSourceKeys(_ backend: StoreBackendKind) throws {
        let (original, store, unlocked) = try unlockedStore(on: .sqlite)
        try Self.fill(unlocked)
        let target = try location(backend)
        let copy = try target.open()
        _ = try store.copy(to: copy)
        #expect(try unlocked.checkDecryption(of: copy) == DecryptionCheck(ratchetStates: 1, logTexts: 3, vaultItems: 2))
        let (elsewhere, other, _) = try unlockedStore(on: .sqlite)
        #expect(throws: StoreError.copyLacksAccount) { _ = try unlocked.checkDecryption(of: other) }
        withExtendedLifetime((original, target, elsewhere)) {}
    }

    @Test("A target that holds a store is refused, and nothing is written to it", arguments: StoreBackendKind.allCases)
    func nonEmptyTargetRefused(_ backend: StoreBackendKind) throws {
        let (original, store, unlocked) = try unlockedStore(on: .sqlite)
        try Self.fill(unlocked)
        let (target, other, _) = try unlockedStore(on: backend)
        let before = try Self.rows(of: "account", in: other)
        #expect {
            _ = try store.copy(to: other)
        } throws: { error in
            guard case StoreError.alreadyExists(let sentence) = error else { return false }
            return sentence.contains("not empty")
        }
        #expect(try Self.rows(of: "account", in: other) == before)
        #expect(try other.readTransaction { db in try StoreCopier.count("contacts", db) } == 0)
        withExtendedLifetime((original, target)) {}
    }

    /// A row in every table of the schema: the round trip fails until a table a new migration
    /// adds has its sample here, so no table goes uncopied unnoticed.
    static func fill(_ unlocked: UnlockedStore) throws {
        _ = try unlocked.addContact(name: "bob", number: nil, pairingCode: Data("pairing".utf8))
        let carol = try unlocked.addContact(name: "carol", number: TestStore.number("+15550100123"), pairingCode: Data("c".utf8))
        try unlocked.write { tx in
            try tx.setPaired(carol, session: Data("ratchet".utf8))
            var last: Int64 = 0
            for text in ["one", "two", "three"] {
                last = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: carol, status: .queued, text: text))
            }
            try tx.enqueueOutbox("CIPHERTEXT", to: carol, messageID: last)
            try tx.saveIdempotencyKey("key-1", token: Data([9, 9]), requestHash: Data([1, 2]), messageID: last, at: Date())
            try tx.addOTPEntry(name: "bank", secret: Data("otp-secret".utf8))
            _ = try tx.insertVaultItem(Data("first item".utf8))
            let item = try tx.insertVaultItem(Data("item".utf8))
            try tx.appendVaultHistory(of: item, body: Data("old".utf8), keeping: 5)
            _ = try tx.appendVaultEvent(Data("event".utf8))
            _ = try tx.insertVaultPart(Data("part".utf8))
            _ = try tx.insertVaultPart(Data("second part".utf8))
            _ = try tx.addOperator(name: "ops", role: .admin, password: Data("verifier".utf8))
            try tx.addAPIToken(APITokenRecord(name: "ci", hash: Data([9, 9]), scopes: "send", createdAt: Date()))
            let event = try tx.appendEvent(type: "test.event", time: Date(), contact: carol, payload: "{}")
            _ = try tx.ensureWebhookEndpoint(url: "https://hooks.example/in", now: Date())
            _ = try tx.insertWebhookDelivery(endpoint: "https://hooks.example/in", eventID: event, now: Date())
            try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true))
            _ = try tx.recordReceivedFingerprint("fingerprint")
            _ = try tx.setNumbers(
                [TestStore.number("+15550100123"), TestStore.number("+15550100124")], forContactNamed: "carol")
            try tx.quarantine("REJECTED", from: carol, messageID: last, reason: "test")
            _ = try tx.admitAutomaticReply(to: carol, limit: 5)
            _ = try tx.notePartialGroups([PartialGroupKey(sender: "+15550100123", reference: 7, total: 2)], modem: "m1")
            try tx.addPendingAcknowledgement(from: carol, epoch: 1, position: 2, ciphertext: "ACK", at: Date())
            try tx.addConsoleSession(tokenHash: Data([7, 7]), operatorNamed: "ops", now: Date())
            _ = try tx.appendAudit(
                AuditRecord(
                    time: Date(), actorKind: "operator", actorName: "ops", action: "test", target: nil, outcome: "done",
                    address: nil))
            _ = try tx.recordHeartbeat(GatewayNode(name: "node-1"), now: Date())
        }
    }

    /// Every row of `table` in its primary key's order, each value as stored.
    static func rows(of table: String, in store: GatewayStore) throws -> [[StoreValue]] {
        try store.readTransaction { db in
            let columns = try StoreCatalog.columns(of: table, db).filter { $0 != "rowid" }
            let key = try StoreCatalog.primaryKey(of: table, db)
            let list = columns.map(StoreCatalog.quoted).joined(separator: ", ")
            let order = (key.isEmpty ? columns : key).map(StoreCatalog.quoted).joined(separator: ", ")
            return try db.rows(sql: "SELECT \(list) FROM \(StoreCatalog.quoted(table)) ORDER BY \(order)").map(\.values)
        }
    }
}
