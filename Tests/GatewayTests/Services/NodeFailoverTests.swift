import Foundation
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// Two nodes on one store, each with an in-memory modem: a dead node's claims, the heartbeat on
/// the health schedule, and each failover logged once.
@Suite("Nodes: heartbeats, leases and failover over in-memory modems")
struct NodeFailoverTests {
    /// A second node on `rig`'s store: its own ready in-memory modem `modem` and a context naming `node`.
    static func peer(of rig: MemoryRig, node: GatewayNode, modem name: String) -> (modem: MemoryModem, context: GatewayContext) {
        let modem = MemoryModem(name: name, device: "/dev/memory-\(name)")
        let settings = ModemSettings(name: name, source: .device(path: modem.device, connection: "at"))
        let link = ModemLink(settings: settings, modem: modem, node: node.name)
        link.update { $0.phase = .ready }
        let context = GatewayContext(
            store: rig.context.store, intervals: MemoryRig.fastIntervals, resync: ResyncSettings(), links: [link], node: node,
            logger: quietLogger("smsgw.gateway.test"))
        return (modem, context)
    }

    /// Runs the outbox sender of `context` until the outbox row `id` is sent; whether it was.
    static func send(_ rig: MemoryRig, with context: GatewayContext, row id: Int64) async -> Bool {
        let sender = OutboxSender(context: context)
        let task = Task { try await sender.run() }
        let sent = await eventually(timeout: MemoryRig.patience) { try rig.store.read { try $0.outboxItem(id: id) }.state == .sent }
        task.cancel()
        _ = try? await task.value
        return sent
    }

    static func session(_ rig: MemoryRig) throws -> [UInt8]? {
        try rig.store.read { tx in try tx.loadSession(for: tx.contact(named: "bob")).map { $0.storedForm() } }
    }

    @Test("A dead node's claim is sent by the survivor as the same stored ciphertext, never sealed again")
    func deadNodesClaimIsResentAsIs() async throws {
        let rig = try await MemoryRig.make()
        // Queued two minutes ago; alpha claimed it, handed it to its modem and died (its lease is 90 s).
        let died = Date() - 120
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("sent by whichever node lives", to: "bob", store: rig.store, now: died, using: &rng)
        let sealed = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.body
        let sessionAfterSealing = try Self.session(rig)
        let alpha = GatewayNode(name: "alpha", healthSeconds: 30)
        try rig.store.write { tx in
            try tx.startNode(alpha, now: died)
            _ = try #require(try tx.claimNextOutbox(modem: "m1", node: alpha, now: died))
        }
        let beta = Self.peer(of: rig, node: GatewayNode(name: "beta", healthSeconds: 30), modem: "m2")
        // Beta's start-up requeue is its own; its heartbeat passes alpha's expired claim on, once.
        #expect(try rig.store.write { try $0.requeueInterruptedOutbox(node: "beta") } == 0)
        #expect(await beta.context.heartbeat(now: Date())?.requeued == 1)
        #expect(await beta.context.heartbeat(now: Date())?.requeued == 0)

        #expect(await Self.send(rig, with: beta.context, row: queued.outboxID))
        let item = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }
        #expect(beta.modem.sent.map(\.text) == [sealed])
        #expect(item.body == sealed && item.node == "beta" && item.modem == "m2" && item.attempts == 2)
        // The ratchet did not move: the re-send sealed nothing.
        #expect(try Self.session(rig) == sessionAfterSealing)
        #expect(rig.modem.sent.isEmpty)
    }

    @Test("A live node's claim stays with it while another node beats and sends")
    func liveNodesClaimStays() async throws {
        let rig = try await MemoryRig.make()
        let queued = try Messages.queue("alpha is slow but alive", to: "bob", store: rig.store)
        let alpha = GatewayNode(name: "alpha", healthSeconds: 30)
        try rig.store.write { tx in
            try tx.startNode(alpha, now: Date())
            _ = try #require(try tx.claimNextOutbox(modem: "m1", node: alpha, now: Date()))
        }
        let beta = Self.peer(of: rig, node: GatewayNode(name: "beta", healthSeconds: 30), modem: "m2")
        #expect(await beta.context.heartbeat(now: Date())?.requeued == 0)
        let other = try Messages.queue("any node may send this", to: "bob", store: rig.store)
        #expect(await Self.send(rig, with: beta.context, row: other.outboxID))
        let kept = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }
        #expect(kept.state == .submitting && kept.node == "alpha" && beta.modem.sent.count == 1)
    }

    @Test("A node refuses to start with a modem named like one a node that is up drives, and starts once that node is down")
    func modemNamesAreUniqueAcrossNodes() async throws {
        let rig = try await MemoryRig.make()
        let modem = MemoryModem(name: "m1")
        var configuration = GatewayConfiguration(
            dataDirectory: rig.directory.url, intervals: MemoryRig.fastIntervals,
            modems: [ModemSettings(name: "m1", source: .device(path: modem.device, connection: "at"))])
        configuration.node = NodeSettings(name: "beta")
        let alpha = GatewayNode(name: "alpha", healthSeconds: 30)
        try rig.store.write { tx in
            try tx.startNode(alpha, now: Date())
            try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true, node: "alpha"))
        }
        func gateway() throws -> Gateway {
            try Gateway(
                store: rig.store, configuration: configuration, logger: quietLogger("smsgw.gateway.test"), handlesSignals: false,
                makeModem: { _, _, _ in modem })
        }
        #expect(throws: GatewayError.modemOfAnotherNode(modem: "m1", node: "alpha")) { try gateway() }
        try rig.store.write { try $0.stopNode(named: "alpha", now: Date()) }
        _ = try gateway()
        #expect(try rig.store.read { try $0.modemStatuses() }.map(\.node) == ["beta"])
    }

    @Test("Each node going down and coming back is noticed once")
    func failoverNoticedOnce() {
        let presence = NodePresence(GatewayNode(name: "beta", healthSeconds: 10))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func alpha(beat: Double, stopped: Double? = nil) -> [NodeRecord] {
            [
                NodeRecord(
                    name: "alpha", version: "", startedAt: start, heartbeatAt: start + beat, stoppedAt: stopped.map { start + $0 },
                    healthSeconds: 10, leaseSeconds: 30),
                NodeRecord(name: "beta", version: "", startedAt: start, heartbeatAt: start + 100, healthSeconds: 10, leaseSeconds: 30),
            ]
        }
        #expect(presence.changes(in: alpha(beat: 0), now: start + 10).gone.isEmpty)
        #expect(presence.changes(in: alpha(beat: 0), now: start + 40).gone.map(\.name) == ["alpha"])
        #expect(presence.changes(in: alpha(beat: 0), now: start + 50).gone.isEmpty)
        #expect(presence.changes(in: alpha(beat: 55), now: start + 60).back.map(\.name) == ["alpha"])
        #expect(presence.changes(in: alpha(beat: 65), now: start + 70) == ([], []))
        #expect(presence.changes(in: alpha(beat: 80, stopped: 80), now: start + 81).gone.map(\.name) == ["alpha"])
        #expect(presence.changes(in: alpha(beat: 80, stopped: 80), now: start + 200).gone.isEmpty)
    }

    @Test("The heartbeat rides the modem's health schedule and the stop is recorded")
    func heartbeatOnTheHealthSchedule() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let started = Date()
        #expect(try rig.store.write { try $0.claimNode(rig.context.presence.node, now: started) } == nil)
        rig.context.started()
        let supervisor = ModemSupervisor(link: rig.link, context: rig.context)
        let task = Task { try await supervisor.run() }
        // Health checks every 0.2 s: the node's heartbeat moves on with them.
        let beating = await eventually(timeout: MemoryRig.patience) {
            try rig.store.read { try $0.nodes() }.first.map { $0.heartbeatAt > started } == true
        }
        task.cancel()
        _ = try? await task.value
        #expect(beating)
        await rig.context.recordStop(now: Date())
        let node = try #require(try rig.store.read { try $0.nodes() }.first)
        #expect(node.name == "local" && node.liveness(at: Date()) == .stopped)
        let modem = try #require(try rig.store.read { try $0.modemStatuses() }.first)
        #expect(modem.name == "m1")
    }
}
