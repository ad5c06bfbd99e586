import AsyncHTTPClient
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The web console served by a real `smsgw serve --sim` under `/` of the API's listener: an
/// operator made with the CLI signs in with a real HTTP client, reads the pages, sends a text
/// that the daemon submits, and a viewer's forged send is refused; the API keeps its paths.
@Suite("Console served by serve", .serialized)
struct ConsoleServeTests {
    static let password = "a long console password"

    /// Signs in through the form as a browser would and returns the session cookie.
    static func signIn(_ name: String, password: String = password, client: APIClient) async throws -> String {
        let form = try await client.get("/login")
        #expect(form.status == 200 && form.text.contains("<h1>Sign in</h1>"))
        let loginCookie = try #require(cookie("smsgw_login", in: form))
        let body = "name=\(name)&password=\(password.replacingOccurrences(of: " ", with: "+"))&csrf=\(loginCookie)"
        let answer = try await client.send(
            .POST, "/login", body: Data(body.utf8),
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "smsgw_login=\(loginCookie)"),
                ("Sec-Fetch-Site", "same-origin"),
            ])
        #expect(answer.status == 303, "\(answer.text)")
        return try #require(cookie("smsgw_session", in: answer))
    }

    static func cookie(_ name: String, in answer: APIClient.Answer) -> String? {
        for value in answer.headers["Set-Cookie"] where value.hasPrefix(name + "=") {
            return String(value.dropFirst(name.count + 1).prefix { $0 != ";" })
        }
        return nil
    }

    static func csrf(in page: String) -> String? {
        guard let start = page.range(of: "name=\"csrf\" value=\"")?.upperBound, let end = page[start...].firstIndex(of: "\"") else {
            return nil
        }
        return String(page[start..<end])
    }

    /// Sends `COMMAND +15550001` (`unplug`, `replug`, `senderror 21 1`) to the network of the `serve --sim` alice
    /// runs in `root`.
    static func modemControl(_ alice: Peer, in root: URL) throws -> @Sendable (String) async throws -> Void {
        let simulator = try #require(
            try FileManager.default.contentsOfDirectory(atPath: root.path).first { $0.hasPrefix("sim-alice-") })
        return { command in
            _ = try await offPool {
                try alice.expect(["sim", "ctl", "--dir", root.appendingPathComponent(simulator).path, command, "+15550001"])
            }
        }
    }

    /// The "Console on …" line `serve` printed, once it has.
    static func consoleLine(of daemon: ServeProcess) async throws -> String {
        var line: String?
        try await GatewayRig.wait("the daemon to print the console's address", timeout: 60) {
            let printed = (try? String(contentsOf: daemon.output, encoding: .utf8)) ?? ""
            line = printed.split(separator: "\n").map(String.init).first { $0.hasPrefix("Console on ") }
            return line != nil
        }
        return try #require(line)
    }

    @Test("Without an operator, serve says how to add the first beside the console's address")
    func firstOperatorAdvice() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let console = try await Self.consoleLine(of: daemon)
            #expect(console.hasSuffix("/ (no operator yet: add the first with `smsgw operator add NAME --role admin`)"), "\(console)")
            try await daemon.stop()
        }
    }

    @Test("Sign in, read the pages, send a text the daemon submits; a viewer's send is 403; the API keeps /v1")
    func consoleOverHTTP() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
            try alice.expect(["operator", "add", "ops", "--role", "operator"], input: Self.password + "\n")
            try alice.expect(["operator", "add", "watch", "--role", "viewer"], input: Self.password + "\n")
            try alice.expect(["operator", "add", "guard", "--role", "viewer"], input: Self.password + "\n")
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let base = try await waitForAPI(log: daemon.log)
            let client = try APIClient(base: base, token: nil, followRedirects: false)
            // Operators exist: the console's address alone, no advice to add one.
            let console = try await Self.consoleLine(of: daemon)
            #expect(console == "Console on \(base)/", "\(console)")

            let anonymous = try await client.get("/status")
            #expect(anonymous.status == 303 && anonymous.headers.first(name: "Location") == "/login")
            #expect(try await client.get("/v1/contacts").status == 401, "the API's paths stay the API's")
            #expect(try await client.get("/v1/nowhere").headers.first(name: "Content-Type") == "application/problem+json")

            let session = try await Self.signIn("ops", client: client)
            let cookie = [("Cookie", "smsgw_session=\(session)")]
            let status = try await client.send(.GET, "/status", headers: cookie)
            #expect(status.status == 200 && status.text.contains("<h1>Status</h1>"))
            #expect(status.headers.first(name: "Content-Security-Policy")?.contains("script-src 'self'") == true)
            let css = try await client.get("/assets/console.css")
            #expect(css.status == 200 && css.headers.first(name: "Content-Type") == "text/css; charset=utf-8")

            let sendPage = try await client.send(.GET, "/send", headers: cookie)
            let token = try #require(Self.csrf(in: sendPage.text))
            let sent = try await client.send(
                .POST, "/send", body: Data("contact=bob&text=From+the+console.&csrf=\(token)".utf8),
                headers: cookie + [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")])
            #expect(sent.status == 303, "\(sent.text)")
            let location = try #require(sent.headers.first(name: "Location"))
            // The daemon was woken and submits it to the simulated network.
            let submitted = await eventually(timeout: .seconds(30)) {
                let page = try await client.send(.GET, location, headers: cookie)
                return page.text.contains("<span class=\"state\">sent</span>")
            }
            #expect(submitted, "the console's send was not submitted by the daemon")

            let viewer = try await Self.signIn("watch", client: client)
            let viewerCookie = [("Cookie", "smsgw_session=\(viewer)")]
            let logPage = try await client.send(.GET, "/", headers: viewerCookie)
            #expect(logPage.status == 200 && logPage.text.contains("From the console.") && !logPage.text.contains("href=\"/send\""))
            let viewerToken = try #require(Self.csrf(in: logPage.text))
            let forged = try await client.send(
                .POST, "/send", body: Data("contact=bob&text=Forged.&csrf=\(viewerToken)".utf8),
                headers: viewerCookie + [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")])
            #expect(forged.status == 403)
            let audit = try alice.expect(["audit", "--json"]).stdout
            #expect(audit.contains("\"outcome\":\"refused\"") && audit.contains("\"actorName\":\"watch\""), "\(audit)")
            #expect(try await daemon.stop() == 0)
        }
    }

    @Test("The live log ends when its operator signs out: no text after the sign-out reaches it")
    func liveLogEndsAtSignOut() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
            try alice.expect(["operator", "add", "watch", "--role", "viewer"], input: Self.password + "\n")
            try alice.expect(["operator", "add", "guard", "--role", "viewer"], input: Self.password + "\n")
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let base = try await waitForAPI(log: daemon.log)
            let client = try APIClient(base: base, token: nil, followRedirects: false)
            let api = try APIClient(base: base, token: try alice.makeToken("sender", scopes: "send,read"))
            let session = try await Self.signIn("watch", client: client)
            let cookie = [("Cookie", "smsgw_session=\(session)")]
            let live = EventReader(client, lastEventID: 0, path: "/events", headers: cookie)
            #expect(try await api.post(text: "before the sign-out", to: "bob").status == 202)
            try await GatewayRig.wait("the live log to show the first text", timeout: 60) {
                live.events.contains { $0.data.contains("before the sign-out") }
            }
            let page = try await client.send(.GET, "/", headers: cookie)
            let token = try #require(Self.csrf(in: page.text))
            let signedOut = try await client.send(
                .POST, "/logout", body: Data("csrf=\(token)".utf8),
                headers: cookie + [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")])
            #expect(signedOut.status == 303, "\(signedOut.text)")
            let after = try await api.post(text: "after the sign-out", to: "bob")
            let id = try #require(after.object["id"] as? Int)
            let sent = await eventually(timeout: .seconds(60)) {
                ["sent", "delivered"].contains(try await api.get("/v1/messages/\(id)").object["state"] as? String ?? "")
            }
            #expect(sent, "the second text was not sent")
            try await GatewayRig.wait("the signed-out live log to end", timeout: 60) { live.finished }
            #expect(!live.events.contains { $0.data.contains("after the sign-out") }, "a signed-out page read a text")
            await live.disconnect()
            #expect(try await daemon.stop() == 0)
        }
    }

    @Test(
        "An operator who searches the log too often gets 429 with Retry-After and a sentence, in a new session too; the log and another operator are served"
    )
    func searchThrottle() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            try alice.expect(["operator", "add", "watch", "--role", "viewer"], input: Self.password + "\n")
            try alice.expect(["operator", "add", "guard", "--role", "viewer"], input: Self.password + "\n")
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let client = try APIClient(base: try await waitForAPI(log: daemon.log), token: nil, followRedirects: false)
            let cookie = [("Cookie", "smsgw_session=\(try await Self.signIn("watch", client: client))")]
            // Searched until refused: at least the limit's searches are served first (more if
            // a starved machine let the window pass meanwhile).
            var served = 0
            var refused: APIClient.Answer?
            while refused == nil, served < 200 {
                let answer = try await client.send(.GET, "/?q=water+well", headers: cookie)
                if answer.status == 200 { served += 1 } else { refused = answer }
            }
            let refusal = try #require(refused, "\(served) searches served, none refused")
            #expect(served >= 30, "the console's limit is 30 searches a minute: \(served)")
            #expect(refusal.status == 429 && refusal.text.contains("Too many searches of the log"), "\(refusal.text)")
            let wait = Int(refusal.headers.first(name: "Retry-After") ?? "") ?? 0
            #expect((1...60).contains(wait), "\(refusal.headers)")
            #expect(try await client.send(.GET, "/", headers: cookie).status == 200, "the log without words")
            let again = [("Cookie", "smsgw_session=\(try await Self.signIn("watch", client: client))")]
            #expect(try await client.send(.GET, "/?q=water", headers: again).status == 429, "signing in again gives no more searches")
            let other = [("Cookie", "smsgw_session=\(try await Self.signIn("guard", client: client))")]
            #expect(try await client.send(.GET, "/?q=water", headers: other).status == 200, "another operator's first search")
            #expect(try await daemon.stop() == 0)
        }
    }

    @Test("A modem that goes away is a banner on the log page and an event of its live log, gone once the modem is back")
    func modemBannerOnTheLog() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["operator", "add", "watch", "--role", "viewer"], input: Self.password + "\n")
            try alice.expect(["operator", "add", "guard", "--role", "viewer"], input: Self.password + "\n")
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let client = try APIClient(base: try await waitForAPI(log: daemon.log), token: nil, followRedirects: false)
            let cookie = [("Cookie", "smsgw_session=\(try await Self.signIn("watch", client: client))")]
            let control = try Self.modemControl(alice, in: root)
            let live = EventReader(client, lastEventID: 0, path: "/events", headers: cookie)
            try await GatewayRig.wait("the live log to say the modem is up", timeout: 60) { live.events.contains { $0.type == "modem.up" } }
            #expect(!(try await client.send(.GET, "/", headers: cookie).text.contains("data-modem=")), "a banner for a ready modem")

            try await control("unplug")
            try await GatewayRig.wait("the live log to say the modem is down", timeout: 60) {
                live.events.contains { $0.type == "modem.down" }
            }
            let down = try await client.send(.GET, "/", headers: cookie).text
            #expect(down.contains("data-modem=\"+15550001\"") && down.contains("Modem +15550001 is "), "no banner on the log page")

            try await control("replug")
            try await GatewayRig.wait("the live log to say the modem is up again", timeout: 60) {
                live.events.drop { $0.type != "modem.down" }.contains { $0.type == "modem.up" }
            }
            #expect(!(try await client.send(.GET, "/", headers: cookie).text.contains("data-modem=")), "the banner outlived the outage")
            await live.disconnect()
            #expect(try await daemon.stop() == 0)
        }
    }
}
