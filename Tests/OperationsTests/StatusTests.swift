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

    @Test(
        "A node row a daemon on this data directory left without stopping is marked, not shown up; other places are judged by their lease")
    func aKilledDaemonsNodeIsStoppedUncleanly() throws {
        let couple = try Couple()
        let directory = couple.aliceDirectory.url
        let now = Date()
        var here = GatewayNode(name: "north-1", healthSeconds: 10)
        here.place = Daemon.place(of: directory)
        var elsewhere = GatewayNode(name: "south-1", healthSeconds: 10)
        elsewhere.place = "another-host:/var/lib/smsgw/\(StatusSocket.fileName)"
        var clean = GatewayNode(name: "west-1", healthSeconds: 10)
        clean.place = here.place
        try couple.alice.write { tx in
            // As `kill -9` leaves them: started and beating, never stopped.
            try tx.startNode(here, now: now)
            try tx.startNode(elsewhere, now: now)
            try tx.startNode(clean, now: now)
            try tx.stopNode(named: "west-1", now: now)
        }
        let status = try GatewayStatus.current(in: directory, now: now.addingTimeInterval(5)) { couple.alice }
        let nodes = Dictionary(uniqueKeysWithValues: status.nodes.map { ($0.name, $0) })
        let north = try #require(nodes["north-1"])
        #expect(north.stoppedUncleanly && north.state == .up, "the lease still holds for the other nodes")
        #expect(abs(north.leaseEndsAt.timeIntervalSince(now) - here.leaseSeconds) < 0.01)
        #expect(nodes["south-1"]?.stoppedUncleanly == false && nodes["south-1"]?.state == .up, "another host's node: its lease says")
        #expect(nodes["west-1"]?.stoppedUncleanly == false && nodes["west-1"]?.state == .stopped)

        let json = try OperationsJSON.string(north)
        #expect(json.contains("\"stoppedUncleanly\":true") && json.contains("\"leaseEndsAt\""), "\(json)")
        #expect(try JSONDecoder().decode(GatewayStatus.NodeStatus.self, from: try JSONEncoder().encode(north)) == north)
    }

    @Test("A queued message's attempts count modem trouble too; the status says which of them max_attempts counts")
    func attemptsAndTheFailuresTheLimitCounts() throws {
        let couple = try Couple()
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("tried often", to: "bob", store: couple.alice, now: Date(), using: &rng)
        try couple.alice.write { tx in
            for counted in [false, false, true] {
                _ = try tx.claimNextOutbox(modem: "m1")
                try tx.markOutboxFailed(queued.outboxID, error: "refused", permanent: false, counted: counted)
            }
        }
        let entry = try #require(try GatewayStatus.read(from: couple.alice, now: Date()).queue.first)
        #expect(entry.attempts == 3 && entry.temporaryFailures == 1)
        #expect(try OperationsJSON.string(entry).contains("\"attempts\":3,\"contact\":\"bob\""))
        #expect(try OperationsJSON.string(entry).contains("\"temporaryFailures\":1"))
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
