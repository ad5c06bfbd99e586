import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// Unlocks on several nodes of one PostgreSQL store: each node's ``UnlockLock`` is a file in its
/// own data directory, so only the lock on the database makes them take turns.
@Suite("Unlocking on several nodes at once")
struct UnlockAcrossNodesTests {
    @Test("More nodes than the lockout's threshold unlock at once with the right passphrase: none is refused, no failure stays counted")
    func rightPassphrasesNeverLockTheAccount() async throws {
        _ = try requirePostgres()
        let location = try TestStoreLocation(.postgresql)
        let (first, _) = try location.unlockedStore()
        let address = try #require(location.address)
        let count = LockoutPolicy.standard.threshold + 3
        let directories = (1..<count).map { _ in TemporaryDirectory(prefix: "smsgw-node") }
        let nodes = try [first] + directories.map { try GatewayStore.open(postgres: address, directory: $0.url, logger: TestStore.logger) }

        let refusals = Mutex<[String]>([])
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        // Threads of their own rather than concurrentPerform, which runs only as many at once as
        // there are cores: every node must reserve its attempt while the others derive their keys.
        for node in nodes {
            finished.enter()
            Thread {
                start.wait()
                do {
                    _ = try node.unlockSerialized(passphrase: TestStore.passphrase)
                } catch {
                    refusals.withLock { $0.append("\(error)") }
                }
                finished.leave()
            }.start()
        }
        for _ in nodes { start.signal() }
        // Waited for off the cooperative pool.
        await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }

        #expect(refusals.withLock { $0 }.isEmpty)
        let account = try first.readTransaction { try AccountRecord.require($0) }
        #expect(account.failedAttempts == 0 && account.lockedUntil == nil)
        withExtendedLifetime(directories) {}
    }
}
