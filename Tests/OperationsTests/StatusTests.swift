import Failures
import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The status every front end shows, and daemon liveness.
struct StatusTests {
    @Test func withoutADaemonTheStatusComesFromTheUnlockedStore() throws {
        let couple = try Couple()
        var rng = SystemRandomNumberGenerator()
        try Messages.queue("waiting", to: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(Daemon.state(in: couple.aliceDirectory.url) == .notRunning)
        var unlocked = 0
        let status = try GatewayStatus.current(in: couple.aliceDirectory.url, now: Date()) {
            unlocked += 1
            return couple.alice
        }
        #expect(unlocked == 1 && status.daemon == .notRunning)
        #expect(status.outbox[.queued] == 1 && status.outbox.count == 5 && status.queue.map(\.kind) == [.text])
        #expect(status.contacts.map(\.name) == ["bob"] && status.contacts.first?.sync.state == .ok)
    }

    @Test func aDaemonThatHoldsTheLockIsAskedNotTheStoreAndItsSilenceIsUnavailable() throws {
        let directory = TemporaryDirectory()
        _ = try directory.unlockedStore()
        let lock = try #require(try DaemonLock.acquire(directory: directory.url))
        defer { lock.release() }
        let state = Daemon.state(in: directory.url)
        #expect(state.running && state.pid == getpid())

        var unlocked = false
        let error = #expect(throws: DaemonError.self) {
            try GatewayStatus.current(in: directory.url, now: Date(), wait: 0.2) {
                unlocked = true
                return try directory.unlockedStore()
            }
        }
        #expect(!unlocked, "no passphrase is asked while a daemon runs")
        #expect(error?.category == .unavailable && error?.failure == .notListening && error?.pid == getpid())
        #expect(error?.description.contains("did not answer") == true && error?.description.contains("`smsgw") == false)
    }

    @Test func aContactFailingVerificationShowsAsFailingAtTheThreshold() throws {
        let couple = try Couple()
        try couple.alice.write { tx in
            let bob = try tx.contact(named: "bob")
            for _ in 0..<SyncPolicy.failureThreshold { try tx.incrementFailures(for: bob) }
        }
        let bob = try Contacts.contact(named: "bob", store: couple.alice)
        #expect(bob.sync.state == .failing && bob.sync.consecutiveFailures == SyncPolicy.failureThreshold)
    }
}
