import Foundation
import Logging
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The running daemon's status as `status`, `/health/ready` and the console read it: what the
/// store refuses, modems that went away, node rows a dead run left, and the daemon's webhooks.
@Suite("Live status: what the running daemon knows")
struct LiveStatusTests {
    /// The status of `rig`'s daemon, as node `node`.
    static func live(_ rig: MemoryRig, context: GatewayContext, node: GatewayNode = GatewayNode(name: "local")) -> LiveStatus {
        LiveStatus(
            store: rig.store, links: [rig.link], node: node, storeWrites: context.storeWrites, daemon: DaemonState(running: true),
            arrivals: context.arrivals)
    }

    @Test("While the store refuses received SMS the status says since when and readiness fails; both clear once it takes them")
    func aRefusingStoreShowsAndClears() async throws {
        let rig = try await MemoryRig.make()
        let context = GatewayContext(
            store: rig.context.store, intervals: rig.context.intervals, resync: ResyncSettings(), links: [rig.link],
            logger: quietLogger("smsgw.gateway.test"))
        let live = Self.live(rig, context: context)
        #expect(try live.read(now: Date()).readiness == .ready(modems: ["m1"]))
        try rig.refuseWrites("INSERT", on: "received_pdus")
        rig.modem.deliver(rig.sms("plain, kept on the modem", from: "+15559999"))
        let before = Date()
        let receiver = Task { try await InboxReceiver(context: context).run() }
        rig.link.requestInboxScan()
        #expect(await eventually(timeout: MemoryRig.patience) { try live.read(now: Date()).storeRefusal != nil })

        let status = try live.read(now: Date())
        let refusal = try #require(status.storeRefusal)
        #expect(refusal.waiting == 1 && refusal.since >= before.addingTimeInterval(-1) && refusal.error == "database or disk is full")
        #expect(status.readiness == .notReady(refusal.sentence))
        #expect(refusal.sentence.hasPrefix("The store refuses writes since \(OperationsJSON.timestamp(refusal.since))"))
        #expect(refusal.sentence.contains("received SMS wait on the modem"))
        #expect(try OperationsJSON.string(status).contains("\"storeRefusal\":{\"error\":"))

        try rig.acceptWrites()
        context.storeWrote()
        #expect(await eventually(timeout: MemoryRig.patience) { try live.read(now: Date()).storeRefusal == nil })
        #expect(try live.read(now: Date()).readiness == .ready(modems: ["m1"]))
        receiver.cancel()
        _ = try? await receiver.value
    }

    @Test("A refused outbox write sets the store's refusal, and the next write the store takes clears it")
    func aRefusedOutboxWrite() async throws {
        let rig = try await MemoryRig.make()
        let live = Self.live(rig, context: rig.context)
        let queued = try Messages.queue("hello bob", to: "bob", store: rig.store)
        try rig.refuseWrites("UPDATE", on: "outbox")  // the claim of a queued row
        let sender = Task { try await OutboxSender(context: rig.context).run() }
        #expect(await eventually(timeout: MemoryRig.patience) { try live.read(now: Date()).storeRefusal != nil })
        let status = try live.read(now: Date())
        let refusal = try #require(status.storeRefusal)
        #expect(refusal.waiting == 0 && refusal.error?.contains("full") == true)
        #expect(status.readiness == .notReady(refusal.sentence))

        try rig.acceptWrites()
        #expect(await eventually(timeout: MemoryRig.patience) { try live.read(now: Date()).storeRefusal == nil })
        #expect(
            await eventually(timeout: MemoryRig.patience) { try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .sent })
        sender.cancel()
        _ = try? await sender.value
    }

    @Test("A modem that was ready and went away is said to have gone, and since when; one never ready is not ready yet")
    func aModemThatWentAway() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let live = Self.live(rig, context: rig.context)
        rig.link.enter(.connecting, lastError: nil, now: Date())
        #expect(
            try live.read(now: Date()).readiness
                == .notReady("No modem is ready yet (m1: connecting); wait, or see the status and the daemon's log."))
        rig.link.enter(.ready, lastError: nil, now: Date())
        #expect(try live.read(now: Date()).readiness == .ready(modems: ["m1"]))

        let gone = Date(timeIntervalSince1970: 1_790_000_000)
        rig.link.enter(.waitingForDevice, lastError: "The device is gone.", now: gone)
        rig.link.enter(.recovering, lastError: nil, now: gone.addingTimeInterval(30))
        let status = try live.read(now: Date())
        #expect(status.modems.first?.leftReadyAt == gone, "the moment it left ready, not its later phases")
        guard case .notReady(let reason) = status.readiness else {
            Issue.record("ready without a ready modem")
            return
        }
        #expect(reason.hasPrefix("No modem is ready: m1 went away at \(OperationsJSON.timestamp(gone)) (now recovering)."), "\(reason)")
        #expect(!reason.contains("yet"))
        rig.link.enter(.ready, lastError: nil, now: Date())
        #expect(try live.read(now: Date()).modems.first?.leftReadyAt == nil)
    }

    @Test("Another node's modem counts toward readiness only while that node is up")
    func aDeadNodesModemIsNotReadiness() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let live = Self.live(rig, context: rig.context)
        let start = Date()
        try rig.store.write { tx in
            try tx.startNode(GatewayNode(name: "south-1", healthSeconds: 10), now: start)
            try tx.saveModemStatus(ModemStatusRecord(name: "far", state: .ready, connected: true, node: "south-1"))
        }
        #expect(try live.read(now: start).readiness == .ready(modems: ["far"]))
        let later = start.addingTimeInterval(31)  // past south-1's lease of three heartbeats
        #expect(try live.read(now: later).nodes.first?.state == .down)
        #expect(
            try live.read(now: later).readiness
                == .notReady(
                    "No modem is ready yet (m1: connecting, far: its node south-1 is not up); wait, or see the status and the daemon's log."
                ))

        // The running daemon's own modems are live, even when its own row looks late.
        var own = try live.read(now: later)
        own.modems = [ModemStatusRecord(name: "near", state: .ready, connected: true, node: "south-1")]
        own.daemon = DaemonState(running: true, modems: ["near"])
        #expect(own.readiness == .ready(modems: ["near"]))
    }

    @Test("A node row an earlier run at this daemon's place left is stopped uncleanly; this run's and other places' are not")
    func rowsOfAnEndedRunAtThisPlace() async throws {
        let rig = try await MemoryRig.make()
        let place = Daemon.place(statusSocket: "/var/lib/smsgw/\(StatusSocket.fileName)")
        var this = GatewayNode(name: "north-2", healthSeconds: 10)
        this.place = place
        var renamed = GatewayNode(name: "north-1", healthSeconds: 10)
        renamed.place = place
        var other = GatewayNode(name: "south-1", healthSeconds: 10)
        other.place = "south:/var/lib/smsgw/\(StatusSocket.fileName)"
        try rig.store.write { tx in
            for node in [renamed, other, this] { try tx.startNode(node, now: Date()) }
        }
        let nodes = try Self.live(rig, context: rig.context, node: this).read(now: Date()).nodes
        #expect(nodes.map(\.name) == ["north-1", "north-2", "south-1"])
        #expect(nodes.map(\.stoppedUncleanly) == [true, false, false])
        #expect(nodes.map(\.state) == [.up, .up, .up])
    }

    @Test("A row an earlier run left under another spelling of this data directory (a symbolic link, `..`) is stopped uncleanly")
    func anEndedRunUnderAnotherSpelling() async throws {
        let rig = try await MemoryRig.make()
        try await withTemporaryDirectory { root in try Self.endedRunUnderAnotherSpelling(rig, root: root) }
    }

    static func endedRunUnderAnotherSpelling(_ rig: MemoryRig, root: URL) throws {
        let data = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: data.path)
        var this = GatewayNode(name: "north-2", healthSeconds: 10)
        this.place = Daemon.place(statusSocket: "\(data.path)/\(StatusSocket.fileName)")
        var linked = GatewayNode(name: "north-1", healthSeconds: 10)
        linked.place = "\(Daemon.hostName):\(root.path)/link/\(StatusSocket.fileName)"  // as an earlier version recorded it
        var dotted = GatewayNode(name: "north-0", healthSeconds: 10)
        dotted.place = Daemon.place(statusSocket: "\(root.path)/link/../data/./\(StatusSocket.fileName)")
        try rig.store.write { tx in
            for node in [linked, dotted, this] { try tx.startNode(node, now: Date()) }
        }
        let nodes = try live(rig, context: rig.context, node: this).read(now: Date()).nodes
        #expect(nodes.map(\.name) == ["north-0", "north-1", "north-2"])
        #expect(nodes.map(\.stoppedUncleanly) == [true, true, false])
    }

    @Test("Asked for its webhooks, the daemon answers with its own configuration's endpoints, never a secret")
    func theDaemonAnswersItsWebhooks() async throws {
        let rig = try await MemoryRig.make()
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let endpoint = WebhookEndpoint(
            url: URL(string: "http://127.0.0.1:9/hook")!, events: [.messageReceived], secrets: [try WebhookSecret(secret)])
        try rig.store.write { tx in
            _ = try tx.ensureWebhookEndpoint(url: endpoint.key, now: Date())
            _ = try tx.ensureWebhookEndpoint(url: "http://127.0.0.1:9/old", now: Date())
        }
        let reply = Gateway.answer("webhooks", live: Self.live(rig, context: rig.context), webhooks: [endpoint], outboxWake: OutboxWake())
        let webhooks = try #require(reply.webhooks)
        #expect(webhooks.map(\.url) == [endpoint.key, "http://127.0.0.1:9/old"])
        #expect(webhooks.map(\.configured) == [true, false] && webhooks.allSatisfy { $0.source == .daemon })
        #expect(webhooks.first?.events == ["message.received"] && webhooks.first?.secrets == 1)
        let line = String(decoding: try JSONEncoder().encode(reply), as: UTF8.self)
        #expect(!line.contains("whsec_") && !line.contains("MfKQ9r8G"))
    }
}
