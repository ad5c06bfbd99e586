import Foundation
import TestSupport
import Testing

@testable import Store

/// Two nodes on one store: heartbeats, leased claims, start-up requeues and the failover of pins.
@Suite("Nodes, heartbeats and leased outbox claims")
struct NodeTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let alpha = GatewayNode(name: "alpha", version: "1.0", healthSeconds: 10)
    let beta = GatewayNode(name: "beta", version: "1.0", healthSeconds: 10)

    @Test("A node's lease is three heartbeats unless given")
    func leaseDefault() {
        #expect(alpha.leaseSeconds == 30)
        #expect(GatewayNode(name: "n", healthSeconds: 10, leaseSeconds: 12).leaseSeconds == 12)
    }

    @Test("Heartbeats keep a node up; one silent past its lease is down; one that stopped is stopped")
    func heartbeatsAndListing() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        try store.write { tx in
            try tx.startNode(alpha, now: now)
            try tx.startNode(beta, now: now)
        }
        let beat = try store.write { try $0.recordHeartbeat(alpha, now: now + 25) }
        #expect(beat.nodes.map(\.name) == ["alpha", "beta"])
        let nodes = try store.read { try $0.nodes() }
        #expect(nodes.map { $0.liveness(at: now + 29) } == [.up, .up])
        // Beta's last heartbeat was at the start: at +31 its lease of 30 s has ended.
        #expect(nodes.map { $0.liveness(at: now + 31) } == [.up, .down])
        #expect(nodes[0].heartbeatAt == now + 25 && nodes[0].startedAt == now && nodes[0].version == "1.0")

        try store.write { try $0.stopNode(named: "beta", now: now + 40) }
        #expect(try store.read { try $0.nodes() }.map { $0.liveness(at: now + 41) } == [.up, .stopped])
        // Started again: up, its stop forgotten.
        try store.write { try $0.startNode(beta, now: now + 50) }
        let again = try store.read { try $0.nodes() }[1]
        #expect(again.liveness(at: now + 51) == .up && again.stoppedAt == nil && again.startedAt == now + 50)
    }

    /// A store with alpha and beta started at `now` and one row queued to bob with `body`.
    private func bothNodesStarted(queueing body: String, number: String) throws -> (UnlockedStore, Int64) {
        let (_, _, store) = try TestStore.unlockedStore()
        let bob = try store.addContact(name: "bob", number: TestStore.number(number), pairingCode: Data())
        let id = try store.write { tx in
            try tx.startNode(alpha, now: now)
            try tx.startNode(beta, now: now)
            return try tx.enqueueOutbox(body, to: bob, now: now)
        }
        return (store, id)
    }

    @Test("A claim records its node and lease; the lease ending hands the row over exactly once, same body")
    func leaseHandsOverOnce() throws {
        let (store, id) = try bothNodesStarted(queueing: "SEALED ONCE", number: "+447700900401")
        let claimed = try #require(try store.write { try $0.claimNextOutbox(modem: "a1", node: alpha, now: now) })
        #expect(claimed.node == "alpha" && claimed.leaseUntil == now + 30 && claimed.state == .submitting)

        // Alpha dies with the row handed to its modem. Beta's heartbeats within the lease leave it.
        #expect(try store.write { try $0.recordHeartbeat(beta, now: now + 29) }.requeued == 0)
        #expect(try store.write { try $0.claimNextOutbox(modem: "b1", node: beta, now: now + 29) } == nil)
        // Past the lease: beta's heartbeat queues it again, once; later heartbeats find nothing.
        #expect(try store.write { try $0.recordHeartbeat(beta, now: now + 31) }.requeued == 1)
        #expect(try store.write { try $0.recordHeartbeat(beta, now: now + 32) }.requeued == 0)
        let taken = try #require(try store.write { try $0.claimNextOutbox(modem: "b1", node: beta, now: now + 32) })
        #expect(taken.id == id && taken.body == "SEALED ONCE" && taken.node == "beta" && taken.attempts == 2)
        #expect(try store.write { try $0.claimNextOutbox(modem: "b1", node: beta, now: now + 32) } == nil)

        // Alpha comes back late: its outcome is refused, the row is beta's to record.
        #expect(throws: StoreError.self) {
            try store.write { try $0.markOutboxSent(id, reference: 7, modem: "a1", node: "alpha", now: now + 33) }
        }
        try store.write { try $0.markOutboxSent(id, reference: 8, modem: "b1", node: "beta", now: now + 33) }
        let sent = try store.read { try $0.outboxItem(id: id) }
        #expect(sent.state == .sent && sent.messageReference == 8 && sent.modem == "b1")
    }

    @Test("A claim made after its node's last heartbeat comes back as soon as the node is down, not at the claim's own lease")
    func downNodesClaimsComeBackTogether() throws {
        let (store, id) = try bothNodesStarted(queueing: "CLAIMED LATE", number: "+447700900403")
        // Alpha claims 8 s after its last heartbeat and dies: the claim's lease runs to +38.
        let claimed = try #require(try store.write { try $0.claimNextOutbox(modem: "a1", node: alpha, now: now + 8) })
        #expect(claimed.leaseUntil == now + 38)
        // At +29 alpha is still up: nothing moves.
        #expect(try store.write { try $0.recordHeartbeat(beta, now: now + 29) }.requeued == 0)
        // At +31 alpha is down (its lease of 30 s from its last heartbeat ended): the row is queued again.
        #expect(try store.write { try $0.recordHeartbeat(beta, now: now + 31) }.requeued == 1)
        let item = try store.read { try $0.outboxItem(id: id) }
        #expect(item.state == .queued && item.node == nil && item.body == "CLAIMED LATE")
    }

    @Test("A live node's claim is never taken: its heartbeats renew the lease")
    func liveClaimIsKept() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let bob = try store.addContact(name: "bob", number: TestStore.number("+447700900402"), pairingCode: Data())
        let id = try store.write { tx in try tx.enqueueOutbox("SLOW MODEM", to: bob, now: now) }
        _ = try store.write { try $0.claimNextOutbox(modem: "a1", node: alpha, now: now) }
        // Alpha's modem takes long; alpha beats every 10 s, beta too, for ten minutes.
        for tick in stride(from: 10.0, through: 600, by: 10) {
            #expect(try store.write { try $0.recordHeartbeat(alpha, now: now + tick) }.requeued == 0)
            #expect(try store.write { try $0.recordHeartbeat(beta, now: now + tick + 1) }.requeued == 0)
        }
        let item = try store.read { try $0.outboxItem(id: id) }
        #expect(item.state == .submitting && item.node == "alpha" && item.leaseUntil == now + 630)
    }

    @Test("A node's start-up requeue takes back its own interrupted claims and leaves other nodes' alone")
    func startUpRequeueIsPerNode() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let contacts = try (0..<3).map { index in
            try store.addContact(name: "c\(index)", number: TestStore.number("+44770090041\(index)"), pairingCode: Data())
        }
        let ids = try store.write { tx in try contacts.map { try tx.enqueueOutbox("BODY \($0.name)", to: $0, now: now) } }
        let first = try #require(try store.write { try $0.claimNextOutbox(modem: "a1", node: alpha, now: now) })
        let second = try #require(try store.write { try $0.claimNextOutbox(modem: "b1", node: beta, now: now) })
        // A claim from before nodes were recorded names none: the first node to start takes it back.
        let third = try #require(try store.write { try $0.claimNextOutbox(modem: "x", now: now) })
        #expect(Set([first.id, second.id, third.id]) == Set(ids) && third.node == nil)

        #expect(try store.write { try $0.requeueInterruptedOutbox(node: "beta", now: now + 1) } == 2)
        let states = try store.read { tx in try ids.map { try tx.outboxItem(id: $0) } }
        #expect(states.first { $0.id == first.id }?.state == .submitting)
        #expect(states.first { $0.id == first.id }?.node == "alpha")
        #expect(states.filter { $0.state == .queued }.map(\.id).sorted() == [second.id, third.id].sorted())
    }

    @Test("Contacts pinned to a modem of a node that is down are sent by another node's modems, and return when it is back")
    func pinnedContactsFailOverAndBack() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let pinned = try store.addContact(name: "pinned", number: TestStore.number("+447700900421"), pairingCode: Data())
        _ = try store.write { try $0.setModem("north", forContactNamed: "pinned") }
        try store.write { tx in
            try tx.startNode(alpha, now: now)
            try tx.startNode(beta, now: now)
            try tx.saveModemStatus(ModemStatusRecord(name: "north", state: .ready, connected: true, node: "alpha"))
            try tx.saveModemStatus(ModemStatusRecord(name: "south", state: .ready, connected: true, node: "beta"))
            try tx.enqueueOutbox("PINNED 1", to: pinned, now: now)
        }
        // Alpha is up and north ready: beta's south leaves the row to it.
        #expect(try !store.read { try $0.hasDueOutbox(node: "beta", now: now + 1) })
        #expect(try store.read { try $0.nextOutboxAttempt(node: "beta", now: now + 1) } == nil)
        #expect(try store.write { try $0.claimNextOutbox(modem: "south", node: beta, now: now + 1) } == nil)
        #expect(try store.read { try $0.hasDueOutbox(node: "alpha", now: now + 1) })

        // Alpha falls silent past its lease: south sends the pinned contact's row.
        try store.write { tx in _ = try tx.recordHeartbeat(beta, now: now + 31) }
        let failover = try #require(try store.write { try $0.claimNextOutbox(modem: "south", node: beta, now: now + 31) })
        #expect(failover.body == "PINNED 1" && failover.modem == "south")

        // Alpha is back: the contact returns to north.
        try store.write { tx in
            _ = try tx.recordHeartbeat(alpha, now: now + 40)
            try tx.enqueueOutbox("PINNED 2", to: pinned, now: now + 40)
        }
        #expect(try store.write { try $0.claimNextOutbox(modem: "south", node: beta, now: now + 41) } == nil)
        #expect(try store.write { try $0.claimNextOutbox(modem: "north", node: alpha, now: now + 41) }?.body == "PINNED 2")

        // North not ready on a live alpha: the others send, as with one node's modems.
        try store.write { tx in
            try tx.saveModemStatus(ModemStatusRecord(name: "north", state: .recovering, connected: false, node: "alpha"))
            try tx.enqueueOutbox("PINNED 3", to: pinned, now: now + 42)
        }
        #expect(try store.write { try $0.claimNextOutbox(modem: "south", node: beta, now: now + 42) }?.body == "PINNED 3")
        // A node that stopped cleanly hands its pins over at once.
        try store.write { tx in
            try tx.saveModemStatus(ModemStatusRecord(name: "north", state: .ready, connected: true, node: "alpha"))
            try tx.stopNode(named: "alpha", now: now + 43)
            try tx.enqueueOutbox("PINNED 4", to: pinned, now: now + 43)
        }
        #expect(try store.write { try $0.claimNextOutbox(modem: "south", node: beta, now: now + 43) }?.body == "PINNED 4")
    }

    @Test("Starting clears only the node's own modem statuses")
    func modemStatusesPerNode() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        try store.write { tx in
            try tx.saveModemStatus(ModemStatusRecord(name: "north", state: .ready, connected: true, node: "alpha"))
            try tx.saveModemStatus(ModemStatusRecord(name: "south", state: .ready, connected: true, node: "beta"))
            try tx.saveModemStatus(ModemStatusRecord(name: "old", state: .stopped, connected: false))
            try tx.clearModemStatuses(node: "beta")
        }
        let left = try store.read { try $0.modemStatuses() }
        #expect(left.map(\.name) == ["north"] && left.first?.node == "alpha")
    }
}
