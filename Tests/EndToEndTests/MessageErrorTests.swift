import AsyncHTTPClient
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The error a failed message keeps, as readers who do not see paths get it from a real
/// `smsgw serve --sim`: a read token's message detail, a console viewer's message page and live log.
@Suite("A message's error for every reader", .serialized)
struct MessageErrorTests {
    @Test("A send the simulated network refuses: its error names the modem and its number, no path, for a read token and a viewer")
    func refusedSendForReaders() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
            try alice.expect(["operator", "add", "watch", "--role", "viewer"], input: ConsoleServeTests.password + "\n")
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let base = try await waitForAPI(log: daemon.log)
            // alice's modem answers every send with +CMS ERROR 21 (short message transfer rejected).
            try await ConsoleServeTests.modemControl(alice, in: root)("senderror 21 1")
            let console = try APIClient(base: base, token: nil, followRedirects: false)
            let cookie = [("Cookie", "smsgw_session=\(try await ConsoleServeTests.signIn("watch", client: console))")]
            let live = EventReader(console, lastEventID: 0, path: "/events", headers: cookie)
            let sender = try APIClient(base: base, token: try alice.makeToken("sender", scopes: "send"))
            let reader = try APIClient(base: base, token: try alice.makeToken("reader", scopes: "read"))

            let id = try #require(try await sender.post(text: "to a refusing network", to: "bob").object["id"] as? Int)
            let failedInTime = await eventually(timeout: .seconds(60)) {
                try await reader.get("/v1/messages/\(id)").object["state"] as? String == "failed"
            }
            #expect(failedInTime, "the message did not fail")
            let detail = try await reader.get("/v1/messages/\(id)")
            let lastError = try #require(detail.object["lastError"] as? String, "\(detail.text)")
            #expect(lastError.contains("(modem \"+15550001\"; +CMS ERROR 21"), "\(lastError)")
            let page = try await console.send(.GET, "/log/\(id)", headers: cookie)
            #expect(page.status == 200 && page.text.contains("+15550001&quot;; +CMS ERROR 21"), "\(page.text)")
            try await GatewayRig.wait("the live log to show the failure", timeout: 60) {
                live.events.contains { $0.type == "message" && $0.data.contains("\"failed\"") }
            }
            let failed = try #require(live.events.last { $0.type == "message" && $0.data.contains("\"failed\"") })
            #expect(failed.data.contains("+CMS ERROR 21"), "\(failed.data)")
            // JSON may write a slash as \/.
            for shown in [detail.text, page.text, failed.data].map({ $0.replacingOccurrences(of: "\\/", with: "/") }) {
                #expect(!shown.contains("/dev/") && !shown.contains(root.path), "a reader saw a path: \(shown)")
            }
            await live.disconnect()
            #expect(try await daemon.stop() == 0)
        }
    }
}
