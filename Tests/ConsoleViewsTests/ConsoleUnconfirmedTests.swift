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

    /// A text to bob whose SMS went out seven hours ago and has had no report; its log id.
    @discardableResult
    static func unconfirmed(in store: UnlockedStore) throws -> Int64 {
        let sentAt = Date().addingTimeInterval(-7 * 3600)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("Did this arrive?", to: "bob", store: store, now: sentAt, using: &rng)
        try store.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1", now: sentAt))
            try tx.markOutboxSent(item.id, reference: 1, modem: "m1", now: sentAt)
        }
        return queued.logID
    }

    static func statusPage(_ rig: Rig, _ session: (cookie: String, csrf: String)) -> String {
        page("/status", rig, session)
    }

    static func page(_ path: String, _ rig: Rig, _ session: (cookie: String, csrf: String)) -> String {
        rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: path, cookies: [ConsoleController.sessionCookie: session.cookie])
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

    @Test("A message's page marks its SMS checked for an operator, not for a viewer, and says so once none waits")
    func markOneMessage() throws {
        let rig = try Rig()
        let id = try Self.unconfirmed(in: rig.store)
        let path = MessagePage.path(id)
        let checked = "action=\"\(path)/checked\""
        let viewer = try rig.signIn("watch")
        let viewerPage = Self.page(path, rig, viewer)
        #expect(viewerPage.contains("1 SMS went out and has had neither a delivery report nor an acknowledgement"), "\(viewerPage)")
        #expect(!viewerPage.contains(checked))
        #expect(rig.post(path + "/checked", viewer).status == 403)

        let ops = try rig.signIn("ops")
        #expect(Self.page(path, rig, ops).contains(checked))
        let done = rig.post(path + "/checked", ops)
        #expect(done.status == 303 && done.header("Location") == path)
        #expect(try GatewayStatus.read(from: rig.store, now: Date()).unconfirmed == nil)
        let after = Self.page(path, rig, ops)
        #expect(!after.contains(checked) && !after.contains("went out and ha"))
        #expect(rig.post(path + "/checked", ops).status == 409)
        #expect(rig.post(MessagePage.path(id + 1000) + "/checked", ops).status == 404)

        let audit = try Audit.list(in: rig.store).filter { $0.action == "unconfirmed-checked" }
        #expect(audit.contains { $0.outcome == "done" && $0.actorName == "ops" && $0.target == "message \(id)" })
        #expect(audit.contains { $0.outcome == "refused" && $0.actorName == "watch" })
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
