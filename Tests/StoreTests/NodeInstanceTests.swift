import Foundation
import TestSupport
import Testing

@testable import Store

/// Two daemons started with one node name: the second is refused while the first is up, and a
/// run whose row another run took over is told so by its next heartbeat (both backends).
@Suite("One node name, one running daemon")
struct NodeInstanceTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A new run of node alpha (its own instance), at `place` when given.
    private func run(at place: String? = nil) -> GatewayNode {
        var node = GatewayNode(name: "alpha", healthSeconds: 10)
        node.place = place
        return node
    }

    @Test("A second run of a node is refused while the first is up; the row stays the first one's", arguments: StoreBackendKind.allCases)
    func secondRunRefused(backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let (first, second) = (run(), run())
        #expect(first.instance != second.instance)
        #expect(try store.write { try $0.claimNode(first, now: now) } == nil)
        #expect(try store.write { try $0.recordHeartbeat(first, now: now + 20) }.takenOver == nil)

        // Within the first run's lease (30 s from its heartbeat at +20): refused, nothing written.
        let holder = try #require(try store.write { try $0.claimNode(second, now: now + 45) })
        #expect(holder.name == "alpha" && holder.heartbeatAt == now + 20 && holder.leaseSeconds == 30)
        let row = try #require(try store.read { try $0.nodes() }.first)
        #expect(row.heartbeatAt == now + 20 && row.startedAt == now)
        // The first run goes on as before.
        #expect(try store.write { try $0.recordHeartbeat(first, now: now + 50) }.takenOver == nil)
        // The same run starting again (its own row) is not refused.
        #expect(try store.write { try $0.claimNode(first, now: now + 55) } == nil)
    }

    @Test(
        "A run that died (lease ended) or stopped does not block the next one; the dead run's heartbeat learns it was taken over",
        arguments: StoreBackendKind.allCases)
    func deadOrStoppedRunDoesNotBlock(backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let (first, second, third) = (run(), run(), run())
        #expect(try store.write { try $0.claimNode(first, now: now) } == nil)
        // The first run's lease (30 s) ended: the second takes the row.
        #expect(try store.write { try $0.claimNode(second, now: now + 31) } == nil)
        // The first one wakes up: its heartbeat changes nothing and says who holds the row.
        let beat = try store.write { try $0.recordHeartbeat(first, now: now + 32) }
        #expect(beat.takenOver?.name == "alpha" && beat.requeued == 0)
        let row = try #require(try store.read { try $0.nodes() }.first)
        #expect(row.heartbeatAt == now + 31 && row.startedAt == now + 31)
        // Its clean stop leaves the second run's row up.
        try store.write { try $0.stopNode(named: "alpha", instance: first.instance, now: now + 33) }
        #expect(try store.read { try $0.nodes() }.first?.liveness(at: now + 34) == .up)
        #expect(try store.write { try $0.recordHeartbeat(second, now: now + 35) }.takenOver == nil)
        // The second stops cleanly: a third starts at once, no lease to wait for.
        try store.write { try $0.stopNode(named: "alpha", instance: second.instance, now: now + 36) }
        #expect(try store.write { try $0.claimNode(third, now: now + 37) } == nil)
        #expect(try store.read { try $0.nodes() }.first?.liveness(at: now + 38) == .up)
    }

    @Test(
        "A run where the last one held its data directory's lock takes the row at once; one elsewhere waits for the lease",
        arguments: StoreBackendKind.allCases)
    func restartAtTheSamePlace(backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let crashed = run(at: "north:/var/lib/smsgw/status.sock")
        let restarted = run(at: "north:/var/lib/smsgw/status.sock")
        let elsewhere = run(at: "south:/var/lib/smsgw/status.sock")
        #expect(try store.write { try $0.claimNode(crashed, now: now) } == nil)
        // Killed at once; another host's daemon of that name is refused, the restart is not.
        #expect(try store.write { try $0.claimNode(elsewhere, now: now + 1) }?.name == "alpha")
        #expect(try store.write { try $0.claimNode(restarted, now: now + 2) } == nil)
        #expect(try store.write { try $0.recordHeartbeat(crashed, now: now + 3) }.takenOver != nil)
        #expect(try store.write { try $0.recordHeartbeat(restarted, now: now + 3) }.takenOver == nil)
    }
}
