import Foundation
import TestSupport
import Testing

/// Webhooks from two `smsgw serve` nodes on one PostgreSQL store, both configured with the same
/// `[[webhook]]`: one node at a time delivers the endpoint's events (the one holding its lease),
/// each once and in order, and the other takes over when that node stops.
@Suite("Webhooks from two nodes, end to end", .serialized)
struct MultiNodeWebhookTests {
    /// The `message.sent` events the receiver accepted, and whether every request so far came
    /// once and in journal order.
    static func sentEvents(_ receiver: WebhookReceiver) throws -> (events: [WebhookReceiver.Request.Event], onceInOrder: Bool) {
        let requests = try receiver.requests()
        let ids = requests.filter { $0.status == 200 }.compactMap(\.event?.id)
        let onceInOrder = !requests.contains { $0.duplicate } && ids == ids.sorted() && Set(ids).count == ids.count
        return (try receiver.accepted().filter { $0.type == "message.sent" }, onceInOrder)
    }

    /// Waits until the receiver accepted `count` `message.sent` events and the store recorded
    /// every delivery (no pending one left).
    static func waitForSent(_ count: Int, _ receiver: WebhookReceiver, _ rig: TwoNodeRig) async throws {
        let deadline = Date().addingTimeInterval(240)
        while true {
            if try sentEvents(receiver).events.count >= count,
                try await rig.count("SELECT count(*) FROM webhook_deliveries WHERE state <> 'delivered'") == 0
            {
                return
            }
            guard Date() < deadline else {
                Issue.record("Timed out waiting for \(count) message.sent events at the receiver.")
                throw GatewayRig.TimedOut()
            }
            try await Task.sleep(for: .seconds(1))
        }
    }

    @Test("Each event is delivered once, in order, by the node holding the endpoint's lease; the other takes over when it stops")
    func oneNodeDeliversEachEndpoint() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let rig = try await TwoNodeRig(root: root, cluster: cluster)
            // A slow receiver: the other node, if it sent too, would find the delivery still pending.
            let receiver = try await WebhookReceiver(secret: WebhookTests.secret, options: ["--delay", "0.5"], in: root)
            let webhook = WebhookTests.webhook(1, receiver, events: "message.sent", includeText: false)
            let bobDaemon = try await rig.start(rig.bob)
            let alphaDaemon = try await rig.start(rig.alpha, environment: webhook)
            let betaDaemon = try await rig.start(rig.beta, environment: webhook)
            defer { _ = (bobDaemon, alphaDaemon, betaDaemon) }
            try await NodeStatusTests.wait("both nodes up with ready modems", rig.beta, timeout: 120) { report in
                Set(report.nodes.filter { $0.state == "up" }.map(\.name)) == ["alpha", "beta"]
                    && Set(report.modems.filter { $0.state == "ready" }.map(\.name)) == ["alpha-modem", "beta-modem"]
            }

            let first = (1...8).map { "webhook from two nodes \($0)" }
            try await offPool {
                try rig.alpha.expect(["send", "bob", "--lines"], input: first[..<4].map { $0 + "\n" }.joined())
                try rig.beta.expect(["send", "bob", "--lines"], input: first[4...].map { $0 + "\n" }.joined())
            }
            try await Self.waitForSent(first.count, receiver, rig)
            let before = try Self.sentEvents(receiver)
            let firstRequests = try receiver.requests().map { ($0.webhookId, $0.duplicate) }
            #expect(before.onceInOrder, "\(firstRequests)")
            #expect(before.events.count == first.count)

            // The node delivering stops; the other takes the endpoint over and sends what follows.
            let holder = try #require(try await rig.sql("SELECT node FROM webhook_endpoints").first)
            let (stopping, survivor) = holder == "alpha" ? (alphaDaemon, rig.beta) : (betaDaemon, rig.alpha)
            let stopped = try await stopping.stop()
            #expect(stopped == 0)
            let second = (1...4).map { "webhook after the stop \($0)" }
            try await offPool { try survivor.expect(["send", "bob", "--lines"], input: second.map { $0 + "\n" }.joined()) }
            try await Self.waitForSent(first.count + second.count, receiver, rig)
            let after = try Self.sentEvents(receiver)
            let allRequests = try receiver.requests().map { ($0.webhookId, $0.duplicate) }
            #expect(after.onceInOrder, "\(allRequests)")
            #expect(after.events.count == first.count + second.count)
            let delivering = try await rig.sql("SELECT node FROM webhook_endpoints")
            #expect(delivering == [survivor.name])
        }
    }
}
