import Console
import ConsoleViews
import Foundation
import Operations
import Store
import Testing

/// The status page's button that marks the sent SMS never confirmed as checked with the
/// contacts: shown to operators, refused to viewers and to a form without the session's CSRF
/// token (each audited), and done for an operator, after which the banner is gone.
@Suite("Console: marking unconfirmed SMS checked")
struct ConsoleUnconfirmedTests {
    typealias Rig = ConsoleControllerTests.Rig

    /// A text to bob whose SMS went out seven hours ago and has had no report.
    static func unconfirmed(in store: UnlockedStore) throws {
        let sentAt = Date().addingTimeInterval(-7 * 3600)
        var rng = SystemRandomNumberGenerator()
        _ = try Messages.queue("Did this arrive?", to: "bob", store: store, now: sentAt, using: &rng)
        try store.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1", now: sentAt))
            try tx.markOutboxSent(item.id, reference: 1, modem: "m1", now: sentAt)
        }
    }

    static func statusPage(_ rig: Rig, _ session: (cookie: String, csrf: String)) -> String {
        rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: "/status", cookies: [ConsoleController.sessionCookie: session.cookie])
        )
        .body
    }

    @Test("Operators see the button and clear the count; viewers and forged forms are refused and audited")
    func markChecked() throws {
        let rig = try Rig()
        try Self.unconfirmed(in: rig.store)
        let viewer = try rig.signIn("watch")
        let viewerPage = Self.statusPage(rig, viewer)
        #expect(viewerPage.contains("data-banner=\"unconfirmed\"") && viewerPage.contains("1 sent SMS never confirmed"))
        #expect(!viewerPage.contains("action=\"\(StatusPage.checkedPath)\""))
        #expect(rig.post(StatusPage.checkedPath, viewer).status == 403)

        let ops = try rig.signIn("ops")
        #expect(Self.statusPage(rig, ops).contains("action=\"\(StatusPage.checkedPath)\""))
        let forged = rig.controller.respond(
            to: ConsoleRequest(
                method: "POST", path: StatusPage.checkedPath, form: ["csrf": "guess"],
                cookies: [ConsoleController.sessionCookie: ops.cookie], fetchSite: "same-origin"))
        #expect(forged.status == 403)
        #expect(try GatewayStatus.read(from: rig.store, now: Date()).unconfirmed?.count == 1)

        let done = rig.post(StatusPage.checkedPath, ops)
        #expect(done.status == 303 && done.header("Location") == "/status")
        #expect(try GatewayStatus.read(from: rig.store, now: Date()).unconfirmed == nil)
        #expect(!Self.statusPage(rig, ops).contains("data-banner=\"unconfirmed\""))

        let audit = try Audit.list(in: rig.store).filter { $0.action == "unconfirmed-checked" }
        #expect(audit.map(\.outcome) == ["done", "refused", "refused"])
        #expect(audit.map { $0.actorName ?? "" } == ["ops", "ops", "watch"] && audit.first?.target == "all")
    }

    @Test("A refusal's audit target, the path asked for, is cut at 200 characters however long the path")
    func refusalTargetIsBounded() throws {
        let rig = try Rig()
        let viewer = try rig.signIn("watch")
        let path = "/contacts/" + String(repeating: "x", count: 100_000) + "/resync"
        #expect(rig.post(path, viewer).status == 403)
        let target = try #require(try Audit.list(in: rig.store).first { $0.action == "resync" }?.target)
        #expect(target.unicodeScalars.count == Audit.targetLimit && target.hasPrefix("/contacts/xxx") && target.hasSuffix("…"))
    }
}
