import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// What a PostgreSQL write transaction sends beside its own statements, and the copy's hold that
/// it still waits for: the record of a move looked for in one query, the hold waited for on the
/// store's lock, with no table lock of the writer's own.
@Suite("PostgreSQL writes and a copy's hold, at no statement of their own", .dedicatedExecutor)
struct PostgresWriteHoldTests {
    @Test("Every open of a PostgreSQL store makes store_moved, empty: nothing is refused, a copy leaves it out, one dropped comes back")
    func movedTableMadeEmpty() throws {
        let cluster = try requirePostgres()
        let (location, store, unlocked) = try unlockedStore(on: .postgresql)
        let database = try #require(location.address).database
        #expect(try cluster.psql("SELECT count(*) FROM store_moved", database: database) == ["0"])
        #expect(try store.movedRefusal() == nil)
        _ = try unlocked.addContact(name: "bob", number: TestStore.number("+447700900010"), pairingCode: Data())
        #expect(try !store.readTransaction(StoreCatalog.tables).contains(GatewayStore.movedTable))
        // A target has the empty table too: not "not empty", not an old copy.
        let directory = TemporaryDirectory()
        let target = try GatewayStore.open(postgres: cluster.freshAddress(), directory: directory.url, logger: TestStore.logger)
        #expect(try store.copy(to: target).allSatisfy(\.matches))
        #expect(try target.movedRefusal() == nil)
        try cluster.psql("DROP TABLE store_moved", database: database)
        _ = try location.open()
        #expect(try cluster.psql("SELECT count(*) FROM store_moved", database: database) == ["0"])
    }

    @Test("store_moved dropped while the store is open: a key step says so in a sentence, the next look makes it again")
    func movedTableDroppedWhileOpen() throws {
        let cluster = try requirePostgres()
        let (location, store, unlocked) = try unlockedStore(on: .postgresql)
        let database = try #require(location.address).database
        let bob = try unlocked.addContact(name: "bob", number: TestStore.number("+447700900010"), pairingCode: Data())
        try cluster.psql("DROP TABLE store_moved", database: database)

        let error = try #require(throws: StoreError.self) { try unlocked.write { try $0.setPaired(bob, session: Data([1])) } }
        #expect(error.category == .configuration)
        #expect(error.description.contains("has lost its table store_moved") && !error.description.contains("SQLSTATE"))
        #expect(try unlocked.read { try $0.contact(id: bob.id) }.pairingState == .pending)
        // A daemon's heartbeat (and the write's observer in a daemon) looks: the table is back, empty.
        #expect(try store.movedRefusal() == nil)
        #expect(try cluster.psql("SELECT count(*) FROM store_moved", database: database) == ["0"])
        try unlocked.write { try $0.setPaired(bob, session: Data([1])) }
        #expect(try unlocked.read { try $0.contact(id: bob.id) }.pairingState == .paired)
    }

    @Test(
        "A PostgreSQL write transaction's body starts with no table lock taken, its store lock held",
        arguments: [WriteScope.database, .contact(named: "bob"), .contact(named: "nobody")])
    func noTableLockBeforeTheBody(scope: WriteScope) throws {
        let (_, store, unlocked) = try unlockedStore(on: .postgresql)
        _ = try unlocked.addContact(name: "bob", number: nil, pairingCode: Data())
        let (tables, advisory) = try store.writeTransaction(scope) { db in
            let mine = "SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND granted AND locktype = "
            return (
                try db.value(Int.self, sql: mine + "'relation' AND relation = 'contacts'::regclass") ?? -1,
                try db.value(Int.self, sql: mine + "'advisory'") ?? -1
            )
        }
        #expect(tables == 0)
        #expect(advisory >= 1)
    }

    /// A writer on another connection, as another node's.
    final class Writer: Sendable {
        let done = DispatchSemaphore(value: 0)
        let record = Mutex<Result<String?, any Error>?>(nil)
    }

    @Test(
        "A writer during a copy's hold waits for it, whatever its scope, and then sees the record of the move",
        arguments: [WriteScope.database, .contact(named: "bob"), .contact(named: "nobody")])
    func writerWaitsForTheHold(scope: WriteScope) throws {
        let cluster = try requirePostgres()
        let (location, store, unlocked) = try unlockedStore(on: .postgresql)
        _ = try unlocked.addContact(name: "bob", number: nil, pairingCode: Data())
        let other = try location.open()
        let database = try #require(location.address).database
        let writer = Writer()
        var waited = false
        try store.holdingWrites { hold in
            DispatchQueue.global().async {
                let outcome = Result {
                    try other.writeTransaction(scope) { db in
                        try db.value(String.self, sql: "SELECT record FROM store_moved LIMIT 1")
                    }
                }
                writer.record.withLock { $0 = outcome }
                writer.done.signal()
            }
            // Until the writer waits on a lock or is done (the give-up bound only keeps a broken run from hanging).
            let giveUp = Date().addingTimeInterval(120)
            while writer.record.withLock({ $0 == nil }) && Date() < giveUp && !waited {
                let waiting = try cluster.psql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'")
                waited = waiting.first != "0"
                if !waited { Thread.sleep(forTimeInterval: 0.05) }
            }
            try #require(hold.db).execute(sql: "INSERT INTO store_moved (record) VALUES ('Copied by the test.')")
        }
        writer.done.wait()
        #expect(waited)
        #expect(try writer.record.withLock { $0 }?.get() == "Copied by the test.")
    }
}
