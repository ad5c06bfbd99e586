import Console
import Foundation
import Operations
import Store
import Testing

/// The admin page's API tokens and webhooks through the controller, on a real store: a token is
/// made through the same operation as `smsgw api token create`, shown on the answering page only,
/// revoked, and each change is audited with the operator; an operator who is not an admin is
/// refused with 403 and an audit line; a redelivery of an unknown delivery says so.
@Suite("Console admin: tokens and webhooks")
struct ConsoleAdminTests {
    typealias Rig = ConsoleControllerTests.Rig

    func admin(_ rig: Rig, _ session: (cookie: String, csrf: String)) -> ConsoleResponse {
        rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: "/admin", cookies: [ConsoleController.sessionCookie: session.cookie]))
    }

    @Test("An admin makes a token (shown once), which authenticates, then revokes it; both are audited")
    func createAndRevoke() throws {
        let rig = try Rig()
        let chief = try rig.signIn("chief")
        let made = rig.post("/admin/tokens", chief, form: ["name": "dispatch", "scope-send": "on", "scope-read": "on", "expires": "90d"])
        #expect(made.status == 200, "\(made.body)")
        #expect(made.header("Cache-Control") == "no-store")
        let start = try #require(made.body.range(of: "<code class=\"secret\">")?.upperBound)
        let token = String(made.body[start...].prefix { $0 != "<" })
        #expect(token.hasPrefix(APITokens.prefix) && token.count == 49)
        let authenticated = try APITokens.authenticate(token, store: rig.store, now: Date())
        #expect(authenticated.scopes == [.send, .read] && authenticated.expiresAt != nil)

        let page = admin(rig, chief)
        #expect(page.body.contains("<td>dispatch</td>") && !page.body.contains(token), "the token is shown once only")
        let revoked = rig.post("/admin/tokens/dispatch/revoke", chief)
        #expect(revoked.status == 303 && revoked.header("Location") == "/admin")
        #expect(throws: APITokenError.invalid) { try APITokens.authenticate(token, store: rig.store, now: Date()) }

        let audit = try Audit.list(in: rig.store)
        let lines = audit.prefix(2).map { "\($0.action) \($0.actor) \($0.actorName ?? "-") \($0.target ?? "-") \($0.outcome)" }
        #expect(lines == ["token-revoked operator chief dispatch done", "token-created operator chief dispatch done"], "\(lines)")
        #expect(!audit.contains { ($0.target ?? "").contains(token) })
    }

    @Test("A token without a scope, or with a taken name, comes back with the reason; nothing is made")
    func refusedForms() throws {
        let rig = try Rig()
        let chief = try rig.signIn("chief")
        let noScope = rig.post("/admin/tokens", chief, form: ["name": "bare"])
        #expect(noScope.status == 422 && noScope.body.contains("banner problem"), "\(noScope.body)")
        #expect(try APITokens.list(store: rig.store).isEmpty)
        #expect(rig.post("/admin/tokens", chief, form: ["name": "one", "scope-read": "on"]).status == 200)
        let taken = rig.post("/admin/tokens", chief, form: ["name": "ONE", "scope-read": "on"])
        #expect(taken.status == 409, "\(taken.status) \(taken.body)")
        let unknown = rig.post("/admin/deliveries/999/redeliver", chief)
        #expect(unknown.status == 404 && unknown.body.contains("banner problem"))
    }

    @Test("An operator's POSTs to the token and redeliver actions get 403 and an audit line; the page is refused too")
    func onlyAdmins() throws {
        let rig = try Rig()
        let ops = try rig.signIn("ops")
        #expect(rig.post("/admin/tokens", ops, form: ["name": "sneaky", "scope-admin": "on"]).status == 403)
        #expect(rig.post("/admin/deliveries/1/redeliver", ops).status == 403)
        #expect(try APITokens.list(store: rig.store).isEmpty)
        #expect(admin(rig, ops).status == 403)
        let refused = try Audit.list(in: rig.store).filter { $0.outcome == "refused" }.map(\.action)
        #expect(refused.contains("token-created") && refused.contains("webhook-redelivered"), "\(refused)")
    }

    @Test("An admin redelivers a delivery that failed: pending again, audited, listed with its endpoint")
    func redeliver() throws {
        let endpoint = WebhookEndpoint(
            url: URL(string: "http://127.0.0.1:9/hook")!, events: [.messageReceived],
            secrets: [try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")])
        let rig = try Rig(webhooks: [endpoint])
        var rng = SystemRandomNumberGenerator()
        try rig.store.write { tx in try Webhooks.register([endpoint], in: tx, now: Date()) }
        let bob = try rig.store.read { try $0.contact(named: "bob") }
        try rig.store.write { tx in
            _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: bob, status: .decrypted, text: "hello"))
        }
        let id = try rig.store.write { tx -> Int64 in
            guard case .deliver(let delivery) = try Webhooks.next(for: endpoint, in: tx, now: Date()) else { throw NoDelivery() }
            _ = try Webhooks.record(.status(410), of: delivery.deliveryID, to: endpoint, in: tx, now: Date(), using: &rng)
            return delivery.deliveryID
        }
        // Two more texts wait behind the delivery the 410 held: the page shows the backlog.
        for text in ["two", "three"] {
            try rig.store.write { tx in
                _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: bob, status: .decrypted, text: text))
            }
        }
        let chief = try rig.signIn("chief")
        let page = admin(rig, chief).body
        #expect(page.contains("<th>Waiting</th>") && page.contains("<td class=\"waiting\">2</td>"), "\(page)")
        #expect(page.contains("action=\"/admin/deliveries/\(id)/redeliver\"") && page.contains("HTTP 410"), "\(page)")
        #expect(try page.contains("<td>disabled: ") && Webhooks.list(configured: [], store: rig.store).first?.state == "disabled")
        #expect(rig.post("/admin/deliveries/\(id)/redeliver", chief).status == 303)
        // The 410 had disabled the endpoint; the redelivery enables it and makes the delivery due now.
        #expect(try Webhooks.list(configured: [], store: rig.store).first?.state == "active")
        #expect(try Webhooks.deliveries(store: rig.store).first { $0.id == id }.map { $0.state == .pending && $0.attempts == 1 } == true)
        let line = try #require(try Audit.list(in: rig.store).first)
        #expect(line.action == "webhook-redelivered" && line.actorName == "chief" && line.target == "delivery \(id)")
    }

    struct NoDelivery: Error {}

    @Test("The admin page lists webhooks the store knows with their deliveries' counts")
    func webhooksListed() throws {
        let rig = try Rig()
        try rig.store.write { tx in _ = try tx.ensureWebhookEndpoint(url: "https://hooks.example/<b>x</b>", now: Date()) }
        let page = admin(rig, try rig.signIn("chief")).body
        #expect(page.contains("<h2>Webhooks</h2>") && page.contains("https://hooks.example/&lt;b&gt;x&lt;/b&gt;"), "\(page)")
    }
}
