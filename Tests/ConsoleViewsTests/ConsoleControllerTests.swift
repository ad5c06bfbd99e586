import Console
import Foundation
import Operations
import SMSCipher
import Store
import Synchronization
import TestSupport
import Testing

/// The console's behaviour through its controller, on a real store: sign-in with lockout and the
/// per-address throttle, cookies, the origin and CSRF checks, roles enforced on the server with
/// a 403 and an audit line, and a send that queues and wakes the sender.
@Suite("Console requests")
struct ConsoleControllerTests {
    static let password = "correct horse battery"

    /// A gateway store with operators of each role and a paired contact "bob" with a number.
    final class Rig: Sendable {
        let directory = TemporaryDirectory()
        let peerDirectory = TemporaryDirectory()
        let store: UnlockedStore
        let controller: ConsoleController
        let wakes = WakeCount()

        init(secure: Bool = false, webhooks: [WebhookEndpoint] = []) throws {
            store = try directory.unlockedStore()
            let peer = try peerDirectory.unlockedStore()
            var rng = SystemRandomNumberGenerator()
            let bob = try Contacts.add(name: "bob", numbers: [try PhoneNumber("+15550002")], store: store, using: &rng)
            let alice = try Contacts.add(name: "alice", numbers: [try PhoneNumber("+15550001")], store: peer, using: &rng)
            _ = try Contacts.pair("bob", code: try PairingCode(parsing: alice.pairingCode), store: store, now: Date())
            _ = try Contacts.pair("alice", code: try PairingCode(parsing: bob.pairingCode), store: peer, now: Date())
            for (name, role) in [("watch", OperatorRole.viewer), ("ops", .operator), ("chief", .admin)] {
                try Operators.add(name, role: role, password: ConsoleControllerTests.password, by: .commandLine, in: store, now: Date())
            }
            let store = store
            controller = ConsoleController(
                .init(
                    store: store, status: { try GatewayStatus.read(from: store, now: $0) },
                    wake: { [wakes] in wakes.count.withLock { $0 += 1 } }, secure: secure,
                    version: "test", webhooks: webhooks),
                throttle: AddressThrottle(limit: 5, window: 600))
        }

        /// Signs `name` in from `address` and returns the session cookie and the CSRF token of its forms.
        func signIn(_ name: String, password: String = ConsoleControllerTests.password, address: String = "192.0.2.10") throws -> (
            cookie: String, csrf: String
        ) {
            let response = attempt(name, password: password, address: address)
            #expect(response.status == 303, "\(response.body)")
            let cookie = try #require(ConsoleControllerTests.cookie(ConsoleController.sessionCookie, in: response))
            let page = controller.respond(to: ConsoleRequest(method: "GET", path: "/", cookies: [ConsoleController.sessionCookie: cookie]))
            let csrf = try #require(ConsoleControllerTests.field("csrf", in: page.body))
            return (cookie, csrf)
        }

        /// One sign-in attempt through the form, as a browser sends it.
        func attempt(_ name: String, password: String, code: String? = nil, address: String = "192.0.2.10") -> ConsoleResponse {
            let form = controller.respond(to: ConsoleRequest(method: "GET", path: "/login"))
            let token = ConsoleControllerTests.cookie(ConsoleController.loginCookie, in: form) ?? ""
            return controller.respond(
                to: ConsoleRequest(
                    method: "POST", path: "/login", form: ["name": name, "password": password, "csrf": token, "code": code ?? ""],
                    cookies: [ConsoleController.loginCookie: token], fetchSite: "same-origin", address: address))
        }

        func post(
            _ path: String, _ session: (cookie: String, csrf: String), form: [String: String] = [:], fetchSite: String? = "same-origin"
        )
            -> ConsoleResponse
        {
            controller.respond(
                to: ConsoleRequest(
                    method: "POST", path: path, form: form.merging(["csrf": session.csrf]) { $1 },
                    cookies: [ConsoleController.sessionCookie: session.cookie], fetchSite: fetchSite, address: "192.0.2.10"))
        }

        func queuedCount() throws -> Int { try GatewayStatus.read(from: store, now: Date()).outbox[.queued] ?? 0 }
    }

    /// How often the controller woke the sender.
    final class WakeCount: Sendable {
        let count = Mutex(0)
    }

    static func cookie(_ name: String, in response: ConsoleResponse) -> String? {
        for header in response.headers where header.name == "Set-Cookie" && header.value.hasPrefix(name + "=") {
            return String(header.value.dropFirst(name.count + 1).prefix { $0 != ";" })
        }
        return nil
    }

    static func field(_ name: String, in body: String) -> String? {
        guard let start = body.range(of: "name=\"\(name)\" value=\"")?.upperBound, let end = body[start...].firstIndex(of: "\"") else {
            return nil
        }
        return String(body[start..<end])
    }

    @Test("Pages need a session; sign-in sets an HttpOnly, SameSite=Strict cookie (Secure with TLS); sign-out ends it")
    func signInAndOut() throws {
        let rig = try Rig(secure: true)
        let anonymous = rig.controller.respond(to: ConsoleRequest(method: "GET", path: "/status"))
        #expect(anonymous.status == 303 && anonymous.header("Location") == "/login")
        let response = rig.attempt("ops", password: Self.password)
        let setCookie = try #require(response.headers.first { $0.value.hasPrefix(ConsoleController.sessionCookie) }?.value)
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Secure"))
        let session = try rig.signIn("ops")
        let status = rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: "/status", cookies: [ConsoleController.sessionCookie: session.cookie]))
        #expect(status.status == 200 && status.body.contains("<h1>Status</h1>"))
        #expect(status.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(status.header("X-Content-Type-Options") == "nosniff" && status.header("Referrer-Policy") == "same-origin")
        #expect(status.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)

        let out = rig.post("/logout", session)
        #expect(out.status == 303 && out.header("Location") == "/login")
        let after = rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: "/", cookies: [ConsoleController.sessionCookie: session.cookie]))
        #expect(after.status == 303)
    }

    @Test("Wrong passwords lock the operator; many failures from one address are throttled with Retry-After")
    func lockoutAndThrottle() throws {
        let rig = try Rig()
        for _ in 0..<2 { #expect(rig.attempt("watch", password: "not the password").status == 401) }
        let third = rig.attempt("watch", password: "not the password")
        #expect(third.status == 401)
        let locked = rig.attempt("watch", password: Self.password)
        #expect(locked.status == 429 && locked.body.contains("locked until"), "\(locked.body)")
        // From another address, names that do not exist: the address is throttled after five failures.
        for _ in 0..<5 { #expect(rig.attempt("nobody", password: "whatever it is", address: "198.51.100.1").status == 401) }
        let throttled = rig.attempt("ops", password: Self.password, address: "198.51.100.1")
        #expect(throttled.status == 429 && throttled.header("Retry-After") != nil)
        // Other addresses are not held back.
        #expect(rig.attempt("ops", password: Self.password, address: "198.51.100.2").status == 303)
    }

    @Test("A used two-factor code with the right password is refused, but neither locks the operator nor throttles the address")
    func replayedCode() throws {
        let rig = try Rig()
        var rng = SystemRandomNumberGenerator()
        let proposal = try Operators.proposeTwoFactor(for: "ops", in: rig.store, using: &rng)
        let totp = try #require(proposal.uri.totp)
        let used = try totp.code(at: Date())
        try Operators.enableTwoFactor("ops", proposal: proposal, code: used, by: .commandLine, in: rig.store, now: Date())
        // More tries than both the operator's lockout (3) and the address's throttle (5).
        for _ in 0..<6 {
            let replayed = rig.attempt("ops", password: Self.password, code: used)
            #expect(replayed.status == 401 && replayed.body.contains("already used"), "\(replayed.status) \(replayed.body)")
        }
        let next = try totp.code(at: Date().addingTimeInterval(30))
        #expect(rig.attempt("ops", password: Self.password, code: next).status == 303, "the next code signs in")
    }

    @Test("A viewer's POST to send or resync is refused with 403 and audited; nothing is queued")
    func rolesOnTheServer() throws {
        let rig = try Rig()
        let viewer = try rig.signIn("watch")
        let send = rig.post("/send", viewer, form: ["contact": "bob", "text": "Forged."])
        #expect(send.status == 403)
        #expect(rig.post("/contacts/bob/resync", viewer).status == 403)
        #expect(
            rig.controller.respond(
                to: ConsoleRequest(method: "GET", path: "/admin", cookies: [ConsoleController.sessionCookie: viewer.cookie])
            ).status == 403)
        #expect(try rig.queuedCount() == 0)
        let refused = try Audit.list(in: rig.store).filter { $0.outcome == "refused" }
        #expect(refused.map(\.action) == ["resync", "send"] && refused.allSatisfy { $0.actorName == "watch" })
    }

    @Test("The sign-in form keeps the browser's form token: a background request redirected to it does not expire the form")
    func signInTokenIsKept() throws {
        let rig = try Rig()
        let first = rig.controller.respond(to: ConsoleRequest(method: "GET", path: "/login"))
        let token = try #require(Self.cookie(ConsoleController.loginCookie, in: first))
        // The favicon's request, redirected to /login, carries the cookie the form was made with.
        let again = rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: "/login", cookies: [ConsoleController.loginCookie: token]))
        #expect(Self.cookie(ConsoleController.loginCookie, in: again) == token && Self.field("csrf", in: again.body) == token)
        let signedIn = rig.controller.respond(
            to: ConsoleRequest(
                method: "POST", path: "/login", form: ["name": "ops", "password": Self.password, "csrf": token],
                cookies: [ConsoleController.loginCookie: token], origin: "http://gateway.local", fetchSite: "same-origin",
                host: "gateway.local"))
        #expect(signedIn.status == 303, "\(signedIn.body)")
        // A cookie that is not a token of this console's shape is replaced, not echoed.
        let junk = rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: "/login", cookies: [ConsoleController.loginCookie: "<junk>"]))
        #expect(Self.cookie(ConsoleController.loginCookie, in: junk)?.count == 43)
    }

    @Test("A cross-origin POST and a POST without the session's CSRF token are refused")
    func crossSite() throws {
        let rig = try Rig()
        let session = try rig.signIn("ops")
        #expect(rig.post("/send", session, form: ["contact": "bob", "text": "Hi."], fetchSite: "cross-site").status == 403)
        let forged = rig.controller.respond(
            to: ConsoleRequest(
                method: "POST", path: "/send", form: ["contact": "bob", "text": "Hi.", "csrf": "guess"],
                cookies: [ConsoleController.sessionCookie: session.cookie], origin: "https://evil.example", host: "gateway.local"))
        #expect(forged.status == 403)
        let noToken = rig.controller.respond(
            to: ConsoleRequest(
                method: "POST", path: "/send", form: ["contact": "bob", "text": "Hi."],
                cookies: [ConsoleController.sessionCookie: session.cookie]))
        #expect(noToken.status == 403)
        #expect(try rig.queuedCount() == 0)
    }

    @Test("An operator's send queues the text, wakes the sender, audits it and shows the message")
    func send() throws {
        let rig = try Rig()
        let session = try rig.signIn("ops")
        let response = rig.post("/send", session, form: ["contact": "bob", "text": "Meet at the well at six."])
        #expect(response.status == 303, "\(response.body)")
        let location = try #require(response.header("Location"))
        #expect(location.hasPrefix("/log/"))
        #expect(try rig.queuedCount() == 1 && rig.wakes.count.withLock { $0 } == 1)
        #expect(try Audit.list(limit: 1, in: rig.store).first?.action == "send")
        let detail = rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: location, cookies: [ConsoleController.sessionCookie: session.cookie]))
        #expect(detail.body.contains("Meet at the well at six.") && detail.body.contains("<span class=\"state\">queued</span>"))
        // Its SMS waits in the outbox; the page says so, and follows the message live.
        #expect(detail.body.contains("<dd class=\"outbox\">queued</dd>") && detail.body.contains("data-message=\""), "\(detail.body)")
        #expect(detail.body.contains("<dt>Attempts</dt><dd>0</dd>"))

        // A text outside the GSM alphabet comes back in the form with the reason, nothing queued.
        let bad = rig.post("/send", session, form: ["contact": "bob", "text": "Snow ☃ today"])
        #expect(bad.status == 422 && bad.body.contains("Snow ☃ today") && bad.body.contains("banner problem"), "\(bad.body)")
        #expect(try rig.queuedCount() == 1)

        // So does a text to a contact no SMS can reach (no number): the typed text is not lost.
        var rng = SystemRandomNumberGenerator()
        _ = try Contacts.add(name: "carol", numbers: [], store: rig.store, using: &rng)
        let unreachable = rig.post("/send", session, form: ["contact": "carol", "text": "A long report typed by hand."])
        #expect(unreachable.status == 409 && unreachable.body.contains("A long report typed by hand."), "\(unreachable.body)")
        #expect(unreachable.body.contains("has no phone number") && unreachable.body.contains("<textarea"), "\(unreachable.body)")
        #expect(try rig.queuedCount() == 1)
    }

    @Test("Unknown pages are 404, wrong methods 405, assets are served with their types")
    func routing() throws {
        let rig = try Rig()
        let session = try rig.signIn("chief")
        let cookies = [ConsoleController.sessionCookie: session.cookie]
        #expect(rig.controller.respond(to: ConsoleRequest(method: "GET", path: "/nowhere", cookies: cookies)).status == 404)
        #expect(rig.post("/status", session).status == 405)
        let css = rig.controller.respond(to: ConsoleRequest(method: "GET", path: "/assets/console.css"))
        #expect(css.status == 200 && css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(rig.post("/admin/operators", session, form: ["name": "newbie", "role": "viewer", "password": "short"]).status == 422)
        #expect(
            rig.post("/admin/operators", session, form: ["name": "newbie", "role": "viewer", "password": "a good long password"]).status
                == 303)
        #expect(try Operators.list(in: rig.store, now: Date()).map(\.name).contains("newbie"))
    }
}
