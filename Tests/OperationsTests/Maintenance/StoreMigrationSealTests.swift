import Foundation
import Operations
import Store
import Synchronization
import TestSupport
import Testing

/// `smsgw store migrate` and seals on the source: no step of a key state on the old store, before
/// the move is recorded (the source's writes wait) or after (a store opened before refuses it).
@Suite("Store migration and seals on the source", .dedicatedExecutor)
struct StoreMigrationSealTests {
    /// Alice's key state for bob in `store`.
    private func keyState(_ store: UnlockedStore) throws -> Data? {
        try store.read { try $0.session(for: $0.contact(named: "bob")) }
    }

    /// Alice's key state for bob in the SQLite store of `directory`.
    private func keyState(in directory: URL) throws -> Data? {
        try keyState(try GatewayStore.open(directory: directory, logger: TestStore.logger).unlock(passphrase: TestStore.passphrase))
    }

    private static func isMovedRefusal(_ error: any Error) -> Bool {
        guard case StoreError.configuration(let sentence) = error else { return false }
        return sentence.contains("is an old copy")
    }

    @Test(
        "A store opened before the move was recorded refuses the next seal, with the open's refusal, and keeps the key state",
        arguments: StoreBackendKind.allCases)
    func sealAfterTheMoveIsRefused(backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        try TestStore.withDirectory { other in
            // A node down during the migration: its store stays open, and no node check saw it.
            let migrating = try couple.aliceLocation.open().unlock(passphrase: TestStore.passphrase)
            let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
            _ = try StoreMigration.copy(from: migrating, to: target) { _ in }
            let before = try keyState(couple.alice)
            var rng = SystemRandomNumberGenerator()
            #expect(
                performing: {
                    _ = try Messages.encrypt("after the move", for: "bob", store: couple.alice, now: Date(), using: &rng)
                }, throws: Self.isMovedRefusal)
            #expect(
                performing: {
                    _ = try Messages.queue("after the move", to: "bob", store: couple.alice, now: Date(), using: &rng)
                }, throws: Self.isMovedRefusal)
            #expect(try keyState(couple.alice) == before)
            #expect(try keyState(in: other.url) == before)
        }
    }

    /// A seal on another thread of this process, as another command or node would run it.
    final class Seal: Sendable {
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
    }

    @Test(
        "A seal attempted during the copy waits for the move and is refused (or its wait runs out); the target's key state is the source's",
        arguments: StoreBackendKind.allCases)
    func sealDuringTheCopy(backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let cluster = backend == .postgresql ? try requirePostgres() : nil
        try TestStore.withDirectory { other in
            let migrating = try couple.aliceLocation.open().unlock(passphrase: TestStore.passphrase)
            let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
            let before = try keyState(couple.alice)
            let seal = Seal()
            var attempted = false
            let report = try StoreMigration.copy(from: migrating, to: target) { _ in
                guard !attempted else { return }
                attempted = true
                DispatchQueue.global().async {
                    seal.started.signal()
                    var rng = SystemRandomNumberGenerator()
                    let outcome = Result {
                        _ = try Messages.encrypt("during the copy", for: "bob", store: couple.alice, now: Date(), using: &rng)
                    }
                    seal.outcome.withLock { $0 = outcome }
                    seal.done.signal()
                }
                seal.started.wait()
                try waitForTheSeal(seal, cluster: cluster, database: couple.aliceLocation.address?.database)
            }
            seal.done.wait()
            #expect(report.tables.allSatisfy { $0.matches })
            let outcome = try #require(seal.outcome.withLock { $0 })
            #expect(performing: { try outcome.get() }, throws: { Self.isMovedRefusal($0) || ($0 as? StoreError)?.category == .busy })
            #expect(try keyState(couple.alice) == before)
            #expect(try keyState(in: other.url) == before)
        }
    }

    /// Until the seal either waits on a lock (PostgreSQL) or is done (on SQLite, once its busy
    /// timeout ran out; the give-up bound only keeps a broken run from hanging).
    private func waitForTheSeal(_ seal: Seal, cluster: PostgresCluster?, database: String?) throws {
        guard let cluster, let database else {
            seal.done.wait()
            seal.done.signal()
            return
        }
        let giveUp = Date().addingTimeInterval(120)
        while seal.outcome.withLock({ $0 == nil }) && Date() < giveUp {
            let waiting = try cluster.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'")
            if waiting.first != "0" { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
