import AsyncHTTPClient
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The console's live log of a real `smsgw serve --sim` reads its session's role before each
/// event: an operator demoted to viewer while the page is open sees the next modem event as a
/// viewer does, without the error that names the device.
@Suite("Console live log follows the role", .serialized)
struct ConsoleLiveRoleTests {
    @Test("An operator demoted while the live log is open gets the next modem event without its error")
    func demotedWhileStreaming() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["operator", "add", "chief", "--role", "admin"], input: ConsoleServeTests.password + "\n")
            try alice.expect(["operator", "add", "ops", "--role", "operator"], input: ConsoleServeTests.password + "\n")
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let client = try APIClient(base: try await waitForAPI(log: daemon.log), token: nil, followRedirects: false)
            let cookie = [("Cookie", "smsgw_session=\(try await ConsoleServeTests.signIn("ops", client: client))")]
            let control = try ConsoleServeTests.modemControl(alice, in: root)
            let live = EventReader(client, lastEventID: 0, path: "/events", headers: cookie)
            try await GatewayRig.wait("the live log to say the modem is up", timeout: 60) { live.events.contains { $0.type == "modem.up" } }
            func downs() -> [String] { live.events.filter { $0.type == "modem.down" }.map(\.data) }

            try await control("unplug")
            try await GatewayRig.wait("the live log to say the modem is down", timeout: 60) { !downs().isEmpty }
            let asOperator = try #require(downs().first)
            #expect(!asOperator.contains("\"error\":null"), "an operator sees the modem's error: \(asOperator)")
            try await control("replug")
            try await GatewayRig.wait("the live log to say the modem is up again", timeout: 60) {
                live.events.drop { $0.type != "modem.down" }.contains { $0.type == "modem.up" }
            }

            _ = try await offPool { try alice.expect(["operator", "role", "ops", "viewer"]) }
            try await control("unplug")
            try await GatewayRig.wait("the live log to say the modem is down again", timeout: 60) { downs().count >= 2 }
            let asViewer = try #require(downs().last)
            #expect(asViewer.contains("\"error\":null"), "a demoted operator's open live log showed the modem's error: \(asViewer)")
            #expect(!live.finished, "the session is alive; the live log goes on")
            await live.disconnect()
            #expect(try await daemon.stop() == 0)
        }
    }
}
