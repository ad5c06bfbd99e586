import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// The wake-ups between nodes (``StoreNotices``): PostgreSQL's LISTEN/NOTIFY.
@Suite("Store notices between nodes")
struct StoreNoticeTests {
    /// Counts the notices a listener passed on.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test("SQLite has no notices: its one node is woken through its status socket")
    func noneOnSQLite() throws {
        let (_, store, _) = try unlockedStore(on: .sqlite)
        #expect(store.notices(logger: TestStore.logger) == nil)
    }

    @Test("A row queued on another connection is noticed once it commits; a lost listening connection is made again")
    func queuedRowsAreNoticed() async throws {
        _ = try requirePostgres()
        let (_, store, unlocked) = try unlockedStore(on: .postgresql)
        let notices = try #require(store.notices(logger: TestStore.logger))
        let contact = try unlocked.addContact(name: "peer", number: TestStore.number("+447700900010"), pairingCode: Data())
        let counter = Counter()
        let listening = Task { await notices.run(outbox: counter.add) }
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

    @Test("Another node's commit rings this node's commits; a lost listening connection rings once when it is back")
    func otherNodesCommitsRing() async throws {
        let cluster = try requirePostgres()
        let location = try TestStoreLocation(.postgresql)
        let (_, first) = try location.unlockedStore()
        let second = try location.open()
        let notices = try #require(second.notices(logger: TestStore.logger))
        let commits = second.commits
        #expect(!commits.hearsOtherNodes)
        let listening = Task { await notices.run {} }
        defer { listening.cancel() }
        try await waitFor("the listener to connect") { commits.hearsOtherNodes && commits.count == 1 }

        try first.write { try $0.addAPIToken(APITokenRecord(name: "one", hash: Data(count: 32), scopes: "send", createdAt: Date())) }
        try await waitFor("the other node's commit") { commits.count == 2 }
        // A rolled back write notifies no one: the next commit is the next ring.
        struct RolledBack: Error {}
        #expect(throws: RolledBack.self) {
            try first.write { tx in
                _ = try tx.removeAPIToken(named: "one")
                throw RolledBack()
            }
        }
        try first.write { _ = try $0.removeAPIToken(named: "one") }
        try await waitFor("the next commit") { commits.count >= 3 }
        #expect(commits.count == 3)

        // The server ends the listening connection: the signal stops hearing, and rings once back.
        let listener = "FROM pg_stat_activity WHERE datname = '\(try #require(location.address?.database))' AND query ILIKE 'LISTEN%'"
        try cluster.psql("SELECT pg_terminate_backend(pid) \(listener)")
        try await waitFor("the listener to connect again") { commits.count == 4 && commits.hearsOtherNodes }
        try first.write { try $0.addAPIToken(APITokenRecord(name: "two", hash: Data(count: 32), scopes: "send", createdAt: Date())) }
        try await waitFor("a commit after the reconnection") { commits.count == 5 }
        listening.cancel()
        await listening.value
        #expect(!commits.hearsOtherNodes)
    }

    @Test("A write transaction that changed no row notifies no node; one that changed one does")
    func emptyWritesAreNotHeard() async throws {
        _ = try requirePostgres()
        let location = try TestStoreLocation(.postgresql)
        let (_, first) = try location.unlockedStore()
        let second = try location.open()
        let notices = try #require(second.notices(logger: TestStore.logger))
        let commits = second.commits
        let listening = Task { await notices.run {} }
        defer { listening.cancel() }
        try await waitFor("the listener to connect") { commits.hearsOtherNodes && commits.count == 1 }

        // Nothing written at all, then a statement that matched no row.
        try first.write { _ in }
        try first.write { _ = try $0.removeAPIToken(named: "nobody") }
        // Notices arrive in commit order: once the real write's is heard, an earlier one would have been.
        try first.write { try $0.addAPIToken(APITokenRecord(name: "one", hash: Data(count: 32), scopes: "send", createdAt: Date())) }
        try await waitFor("the real write's notice") { commits.count >= 2 }
        #expect(commits.count == 2)
        listening.cancel()
        await listening.value
    }

    @Test("Only a commit that queued a row wakes the outbox, its notice the commit's own; an earlier release's outbox notice still does")
    func outboxWakeUps() async throws {
        let cluster = try requirePostgres()
        let location = try TestStoreLocation(.postgresql)
        let (_, first) = try location.unlockedStore()
        let contact = try first.addContact(name: "peer", number: TestStore.number("+447700900010"), pairingCode: Data())
        let second = try location.open()
        let notices = try #require(second.notices(logger: TestStore.logger))
        let commits = second.commits
        let woken = Counter()
        let listening = Task { await notices.run(outbox: woken.add) }
        defer { listening.cancel() }
        try await waitFor("the listener to connect") { commits.hearsOtherNodes && commits.count == 1 && woken.count == 1 }

        // Notices arrive in commit order: once the queued row's is heard, the token's was.
        try first.write { try $0.addAPIToken(APITokenRecord(name: "one", hash: Data(count: 32), scopes: "send", createdAt: Date())) }
        try first.write { try $0.enqueueOutbox("BODY", to: contact) }
        try await waitFor("the queued row's commit") { commits.count >= 3 && woken.count >= 2 }
        #expect(woken.count == 2 && commits.count == 3)
        #expect(StoreNotices.commit("origin outbox") == ("origin", true) && StoreNotices.commit("origin") == ("origin", false))

        // A node of an earlier release wakes the outbox on its own channel.
        let database = try #require(location.address?.database)
        _ = try cluster.psql("NOTIFY \(StoreNotices.outboxChannel)", database: database)
        try await waitFor("the earlier release's notice") { woken.count == 3 }
        #expect(commits.count == 3)
        listening.cancel()
        await listening.value
    }
}
