import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Webhooks end to end: two `smsgw serve` daemons on a simulated network, bob's delivering its
/// events to real HTTP receivers (examples/webhook-receiver.py) that verify every signature.
@Suite("Webhooks", .serialized)
struct WebhookTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// The variables that give bob's daemon a `[[webhook]]` table number `index` (from 1).
    static func webhook(
        _ index: Int, _ receiver: WebhookReceiver, events: String = "message.received", includeText: Bool, extra: [String: String] = [:]
    )
        -> [String: String]
    {
        [
            "SMSGW_WEBHOOK_\(index)_URL": receiver.url, "SMSGW_WEBHOOK_\(index)_SECRET": secret,
            "SMSGW_WEBHOOK_\(index)_EVENTS": events, "SMSGW_WEBHOOK_\(index)_INCLUDE_TEXT": "\(includeText)",
            "SMSGW_WEBHOOK_\(index)_RETRY_BASE_SECONDS": "0.4",
        ].merging(extra) { $1 }
    }

    @Test("every event arrives once by id, in order, across the receiver's 500s and a kill -9 of the daemon")
    func exactlyOnceAcrossFailuresAndACrash() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            let flaky = try await WebhookReceiver(secret: Self.secret, options: ["--fail-every", "3"], in: root)
            let plain = try await WebhookReceiver(secret: Self.secret, in: root)
            let environment = Self.webhook(1, flaky, includeText: true).merging(Self.webhook(2, plain, includeText: false)) { $1 }
            try rig.startDaemon(rig.alice)
            try rig.startDaemon(rig.bob, environment: environment)
            for peer in [rig.alice, rig.bob] {
                try await GatewayRig.wait("\(peer.name)'s modem to be ready", timeout: 60) { try rig.status(peer).modemReady }
            }
            let texts = (1...8).map { "webhook text \($0)" }
            try rig.send(lines: Array(texts[0..<4]), from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("two events at the flaky receiver", timeout: 90) { try flaky.accepted().count >= 2 }
            try await rig.stopDaemon(rig.bob, signal: SIGKILL)
            try rig.send(lines: Array(texts[4...]), from: rig.alice, to: rig.bob)
            try rig.startDaemon(rig.bob, environment: environment)
            try await GatewayRig.wait("every text at both receivers", timeout: 120) {
                try flaky.accepted().count >= texts.count && plain.accepted().count >= texts.count
            }
            // Let any stray repeat arrive before counting.
            try await Task.sleep(for: .seconds(2))

            let requests = try flaky.requests()
            #expect(requests.allSatisfy { $0.verified }, "every request carries a valid signature")
            #expect(requests.contains { $0.status == 500 }, "the receiver failed some requests")
            let accepted = try flaky.accepted()
            #expect(accepted.map(\.data.message?.text) == texts, "each text once, in order: \(accepted.map(\.data.message?.text))")
            #expect(accepted.allSatisfy { $0.type == "message.received" && $0.data.message?.contact == "alice" })
            #expect(accepted.map(\.id) == accepted.map(\.id).sorted() && Set(accepted.map(\.id)).count == texts.count)
            #expect(Set(accepted.map { "evt_\($0.id)" }) == Set(requests.filter { $0.status == 200 }.map(\.webhookId)))
            let delivered = requests.filter { $0.status == 200 }.compactMap(\.event?.id)
            #expect(delivered == delivered.sorted(), "per endpoint order: \(delivered)")

            let withoutText = try plain.accepted()
            #expect(withoutText.map(\.id) == accepted.map(\.id), "both endpoints get the same events, with the same ids")
            #expect(withoutText.allSatisfy { $0.data.message?.text == nil }, "no text without include_text")
            #expect(!(try String(contentsOf: plain.output, encoding: .utf8)).contains("webhook text"))

            let list = try rig.bob.run(["webhook", "list", "--json"], environment: environment)
            #expect(
                list.status == 0 && list.lines.count == 2 && list.stdout.contains("\"state\":\"active\"") && !list.stdout.contains("whsec_")
            )
            try await rig.stopDaemon(rig.bob)
            try await rig.stopDaemon(rig.alice)
            let serveLog = try String(contentsOf: root.appendingPathComponent("bob-serve-3.log"), encoding: .utf8)
            #expect(!serveLog.contains("webhook text") && !serveLog.contains("MfKQ9r8G"), "no text or secret in the daemon's log")
        }
    }

    @Test("a receiver with another secret refuses every request; a 410 disables the endpoint until a redelivery")
    func wrongSecretAndGone() async throws {
        try await withTemporaryDirectory { root in
            let daemonPeer = try Peer.create("solo", in: root)
            let wrongSecret = try await WebhookReceiver(secret: "whsec_" + Data(repeating: 1, count: 32).base64EncodedString(), in: root)
            let gone = try await WebhookReceiver(secret: Self.secret, options: ["--gone"], in: root)
            // A third endpoint where nothing listens (the discard port, closed on a test machine).
            let closed = "http://127.0.0.1:9/smsgw"
            let environment = Self.webhook(1, wrongSecret, events: "modem.up", includeText: false)
                .merging(Self.webhook(2, gone, events: "modem.up", includeText: false)) { $1 }
                .merging(["SMSGW_WEBHOOK_3_URL": closed, "SMSGW_WEBHOOK_3_SECRET": Self.secret, "SMSGW_WEBHOOK_3_EVENTS": "modem.up"]) {
                    $1
                }
            let directory = root.appendingPathComponent("sim")
            let daemon = try ServeProcess(daemonPeer, ["--sim", "--sim-dir", directory.path], in: root, environment: environment)
            try await daemon.waitUntilServing(daemonPeer)
            try await GatewayRig.wait("a request at each receiver", timeout: 60) {
                try wrongSecret.requests().count >= 2 && gone.requests().count >= 1
            }
            #expect(try wrongSecret.requests().allSatisfy { $0.status == 401 && !$0.verified }, "signed with another secret")
            #expect(try gone.requests().map(\.status) == [410] && gone.requests().allSatisfy { $0.verified })
            let list = try daemonPeer.run(["webhook", "list", "--json"], environment: environment)
            #expect(list.status == 0, "\(list.stderr)")
            let states = list.lines.map { line in
                line.contains(wrongSecret.url) ? "wrong" : line.contains("\"state\":\"disabled\"") ? "disabled" : "?"
            }
            #expect(states.sorted() == ["?", "disabled", "wrong"], "\(list.stdout)")
            // Without the daemon's SMSGW_WEBHOOK_* variables the list still judges by the daemon's configuration.
            let bare = try daemonPeer.run(["webhook", "list"])
            #expect(bare.status == 0 && bare.lines.count >= 3, "\(bare.stdout)\(bare.stderr)")
            #expect(!bare.stdout.contains("no longer configured") && bare.stdout.contains("modem.up"), "\(bare.stdout)")
            #expect(bare.stderr.contains("as the running daemon has them configured"), "\(bare.stderr)")
            #expect(
                try daemonPeer.run(["webhook", "list", "--json"]).lines.allSatisfy {
                    $0.contains(#""configured":true,"delivered""#) && $0.contains(#""source":"daemon""#)
                })
            let deliveries = try daemonPeer.expect(["webhook", "deliveries", "--json"])
            #expect(deliveries.stdout.contains("\"lastStatus\":401") && deliveries.stdout.contains("\"lastStatus\":410"))
            var refused = ""
            try await GatewayRig.wait("an attempt at the closed port", timeout: 60) {
                refused =
                    try daemonPeer.expect(["webhook", "deliveries"]).lines.first { $0.contains(closed) && !$0.contains("attempts 0") } ?? ""
                return !refused.isEmpty
            }
            #expect(
                refused.hasSuffix(
                    "The connection was refused: nothing listens at the url's host and port; start the receiver or fix the url."),
                "\(refused)")
            // Disabled: nothing more goes to it, while the other endpoint keeps retrying.
            try await GatewayRig.wait("more retries at the other receiver", timeout: 30) { try wrongSecret.requests().count >= 4 }
            #expect(try gone.requests().count == 1)
            let goneDelivery = try #require(deliveries.lines.first { $0.contains("\"lastStatus\":410") })
            let id = try #require(
                (try JSONSerialization.jsonObject(with: Data(goneDelivery.utf8)) as? [String: Any])?["id"] as? Int)
            let redeliver = try daemonPeer.expect(["webhook", "redeliver", "\(id)"])
            #expect(redeliver.stdout.contains("is due again"))
            try await GatewayRig.wait("the redelivery", timeout: 30) { try gone.requests().count == 2 }
            #expect(try daemonPeer.expect(["webhook", "deliveries", "--failed"]).stdout.isEmpty)
            #expect(try await daemon.stop() == 0)
            #expect(!daemon.lines.joined().contains("MfKQ9r8G"))
        }
    }

    @Test("webhook list with a running daemon that has no endpoint says whose configuration that is, not this command's")
    func noEndpointInTheDaemon() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let file = root.appendingPathComponent("smsgw.toml")
            let table = "[[webhook]]\nurl = \"http://127.0.0.1:9/hook\"\nsecret = \"\(Self.secret)\"\n"
            try table.write(to: file, atomically: true, encoding: .utf8)
            #expect(try alice.expect(["webhook", "list", "--config", file.path]).stdout.contains("http://127.0.0.1:9/hook"))
            let daemon = try await ServeProcess.simulated(alice, in: root)
            // The file given is not the daemon's: the daemon's (none) counts, and the sentence says so.
            let listed = try alice.expect(["webhook", "list", "--config", file.path])
            #expect(listed.stdout.isEmpty && listed.stderr.contains("The running daemon has no webhook configured"), "\(listed.stderr)")
            #expect(try await daemon.stop() == 0)
        }
    }
}
