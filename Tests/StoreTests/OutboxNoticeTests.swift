import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// The outbox's wake-ups between nodes (``OutboxNotices``): PostgreSQL's LISTEN/NOTIFY.
@Suite("Outbox notices between nodes")
struct OutboxNoticeTests {
    /// Counts the notices a listener passed on.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test("SQLite has no notices: its one node is woken through its status socket")
    func noneOnSQLite() throws {
        let (_, store, _) = try unlockedStore(on: .sqlite)
        #expect(store.outboxNotices(logger: TestStore.logger) == nil)
    }

    @Test("A row queued on another connection is noticed once it commits; a lost listening connection is made again")
    func queuedRowsAreNoticed() async throws {
        _ = try requirePostgres()
        let (_, store, unlocked) = try unlockedStore(on: .postgresql)
        let notices = try #require(store.outboxNotices(logger: TestStore.logger))
        let contact = try unlocked.addContact(name: "peer", number: TestStore.number("+447700900010"), pairingCode: Data())
        let counter = Counter()
        let listening = Task { await notices.run { counter.add() } }
        defer { listening.cancel() }
        // One notice as it starts listening: rows may have been queued while it was not.
        try await waitFor("the listener to connect") { counter.count == 1 }

        try unlocked.write { try $0.enqueueOutbox("BODY 1", to: contact) }
        try await waitFor("the queued row's notice") { counter.count == 2 }
        // The server ends the listening connection (as a restart or a network cut would).
        try unlocked.write { tx in
            _ = try tx.db.rows(
                sql: """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()
                    """)
        }
        try await waitFor("the listener to connect again") { counter.count == 3 }
        try unlocked.write { try $0.enqueueOutbox("BODY 2", to: contact) }
        try await waitFor("the next queued row's notice") { counter.count == 4 }
        listening.cancel()
        await listening.value
    }
}
