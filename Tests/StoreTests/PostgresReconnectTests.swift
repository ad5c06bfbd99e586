import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// The store's connections when the server goes away under them, as in a failover: a pooled
/// connection the server closed must fail, never wait for an answer that cannot come.
@Suite("The store on PostgreSQL when the server closes its connections", .blockingOffPool)
struct PostgresReconnectTests {
    @Test(
        "A pooled connection the server closed fails its next statement instead of waiting forever; the store then connects again")
    func serverClosedConnection() throws {
        let cluster = try requirePostgres()
        let location = try TestStoreLocation(.postgresql)
        let (_, store) = try location.unlockedStore()
        _ = try store.addContact(name: "bob", number: nil, pairingCode: Data())
        let database = try #require(location.address?.database)
        // The store's idle connections are cut by the server, as when it stops or is replaced.
        let sessions = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'"
        #expect(try cluster.psql(sessions) != ["0"])
        try cluster.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'")
        try waitUntil { try cluster.psql(sessions) == ["0"] }

        // Each idle connection fails once (the caller tries again, as the daemon's loops do);
        // postgres-nio never answered a statement written to a closed connection.
        var attempts = 0
        while try !Self.returns(within: 30, { try store.contacts() }) {
            attempts += 1
            try #require(attempts <= PostgresPool.defaultCapacity, "the store did not connect again")
        }
        #expect(try store.contacts().map(\.name) == ["bob"])
    }

    /// Whether `body` returned without throwing; a failed expectation when it has not returned
    /// after `seconds` (its thread is left waiting).
    private static func returns(within seconds: Double, _ body: @escaping @Sendable () throws -> some Any) throws -> Bool {
        let outcome = Mutex<Bool?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let succeeded = (try? body()) != nil
            outcome.withLock { $0 = succeeded }
            finished.signal()
        }
        try #require(finished.wait(timeout: .now() + seconds) == .success, "a statement waited \(Int(seconds)) s for a closed connection")
        return outcome.withLock { $0 } ?? false
    }

    /// Polls `condition` every 0.1 s for up to 30 s.
    private func waitUntil(_ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(30)
        while try !condition() {
            try #require(Date() < deadline, "timed out")
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}
