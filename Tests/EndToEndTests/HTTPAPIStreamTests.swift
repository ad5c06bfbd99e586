import AsyncHTTPClient
import Foundation
import TestSupport
import Testing

/// The API end to end: a text sent with POST arrives decrypted at the peer's gateway, and the
/// event stream resumes after a disconnect without losing or repeating an event.
@Suite("HTTP API: delivery and the event stream", .serialized)
struct HTTPAPIStreamTests {
    @Test("A text sent through the API arrives decrypted at the peer's gateway and its state follows")
    func sendThroughTheAPI() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try await rig.startBoth()
            let token = try rig.alice.makeToken("integration", scopes: "send,read")
            let base = try await waitForAPI(log: root.appendingPathComponent("alice-serve-1.log"))
            let client = try APIClient(base: base, token: token)
            let answer = try await client.post(text: "over HTTP, {encrypted} €5", to: "bob")
            #expect(answer.status == 202, "\(answer.text)")
            #expect(answer.object["state"] as? String == "queued")
            let id = try #require(answer.object["id"] as? Int)
            try await GatewayRig.wait("bob to decrypt the API's text", timeout: 90) {
                try rig.log(rig.bob).contains { $0.status == "decrypted" && $0.text == "over HTTP, {encrypted} €5" }
            }
            var states: [String] = []
            var times: [String: Any] = [:]
            for _ in 0..<60 {
                let detail = try await client.get("/v1/messages/\(id)")
                states = (detail.object["history"] as? [[String: Any]])?.compactMap { $0["status"] as? String } ?? []
                times = detail.object["states"] as? [String: Any] ?? [:]
                if states.contains("sent") { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(states.first == "queued" && states.contains("sent"), "history: \(states)")
            let submitting = try #require(times["submitting"] as? String, "states: \(times)")
            let sent = try #require(times["sent"] as? String)
            #expect(times["queued"] as? String ?? "" <= submitting && submitting <= sent, "states: \(times)")
            let status = try await client.get("/v1/status")
            #expect(status.status == 200 && status.object["version"] as? String != nil)
            #expect(try await client.get("/health/ready").status == 200)
            let metrics = try await client.get("/metrics")
            #expect(metrics.text.contains("smsgw_modem_up{modem=\"alice-modem\"} 1"), "\(metrics.text.prefix(600))")
            #expect(metrics.text.contains("smsgw_api_queue_seconds_count 1"))
            #expect(metrics.text.contains("smsgw_send_submit_seconds_count 1"), "the sent text is in the histogram")
            for series in [
                "smsgw_decrypt_failures{reason=\"not_authentic\"} 0", "smsgw_webhook_deliveries{outcome=\"retrying\"} 0",
                "smsgw_arrival_log_seconds_bucket{le=\"+Inf\"}",
            ] {
                #expect(metrics.text.contains(series), "\(series) is on the page")
            }
            try await rig.stopBoth()
        }
    }

    @Test("After a disconnect, Last-Event-ID resumes the stream: no event lost, none repeated")
    func streamResumes() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await HTTPAPITests.Fixture.start(in: root)
            let client = try fixture.client(scopes: "send,read")
            let first = EventReader(client, lastEventID: nil)
            for index in 0..<5 { #expect(try await client.post(text: "before \(index)", to: "bob").status == 202) }
            try await GatewayRig.wait("the first connection to see five messages and the modem come up", timeout: 90) {
                first.events.filter { $0.data.contains("\"before ") }.count >= 5 && first.events.contains { $0.type == "modem.up" }
            }
            await first.disconnect()
            let seen = first.events
            let last = try #require(seen.last?.id)
            for index in 0..<5 { #expect(try await client.post(text: "during \(index)", to: "bob").status == 202) }
            let second = EventReader(client, lastEventID: last)
            try await GatewayRig.wait("the second connection to see the messages sent while away", timeout: 30) {
                second.events.filter { $0.data.contains("\"during ") && $0.data.contains("\"queued\"") }.count >= 5
            }
            await second.disconnect()
            let resumed = seen + second.events
            let whole = EventReader(client, lastEventID: nil)
            let end = try #require(resumed.last?.id)
            try await GatewayRig.wait("a full replay up to the same event", timeout: 30) { (whole.events.last?.id ?? 0) >= end }
            await whole.disconnect()
            #expect(
                resumed.map(\.id) == whole.events.map(\.id).filter { $0 <= end },
                "the two connections together saw exactly the whole stream")
            #expect(Set(resumed.map(\.id)).count == resumed.count, "no event repeated")
            #expect(resumed.contains { $0.type == "modem.up" && $0.data.contains("\"modem.up\"") }, "the modem's events are in the stream")
            #expect(zip(resumed, resumed.dropFirst()).allSatisfy { $0.id < $1.id }, "ids increase")
            // A cursor ahead of the store (a restored backup, another store) is refused, not
            // resumed after, which would skip every event up to it.
            for ahead in [
                try await client.get("/v1/events?after=99000000000"),
                try await client.send(.GET, "/v1/events", headers: [("Last-Event-ID", "\(end + 500_000)")]),
            ] {
                #expect(ahead.status == 409, "\(ahead.status) \(ahead.text)")
                #expect((ahead.object["detail"] as? String)?.contains("ahead of every event of this store") == true, "\(ahead.text)")
            }
            // A stream that is still open does not hold up a graceful shutdown.
            let open = EventReader(client, lastEventID: nil)
            try await GatewayRig.wait("the last stream to start", timeout: 30) { !open.events.isEmpty }
            #expect(try await fixture.daemon.stop() == 0)
            await open.disconnect()
        }
    }

    @Test("A stream whose token is revoked ends: no event after the revocation reaches it")
    func revokedTokenEndsTheStream() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await HTTPAPITests.Fixture.start(in: root)
            let sender = try fixture.client(scopes: "send,read")
            let watcher = try fixture.client(scopes: "read", name: "watcher")
            let revoked = EventReader(watcher, lastEventID: nil)
            let witness = EventReader(sender, lastEventID: nil)
            #expect(try await sender.post(text: "before the revocation", to: "bob").status == 202)
            try await GatewayRig.wait("the watcher's stream to see the first text", timeout: 60) {
                revoked.events.contains { $0.data.contains("before the revocation") }
            }
            let alice = fixture.alice
            _ = try await offPool { try alice.expect(["api", "token", "revoke", "watcher"]) }
            #expect(try await sender.post(text: "after the revocation", to: "bob").status == 202)
            try await GatewayRig.wait("a stream with a valid token to see the second text", timeout: 60) {
                witness.events.contains { $0.data.contains("after the revocation") }
            }
            try await GatewayRig.wait("the revoked token's stream to end", timeout: 60) { revoked.finished }
            #expect(!revoked.events.contains { $0.data.contains("after the revocation") }, "a revoked token read a text")
            #expect(!witness.finished, "a valid token's stream stays open")
            await revoked.disconnect()
            await witness.disconnect()
            #expect(try await fixture.daemon.stop() == 0)
        }
    }
}
