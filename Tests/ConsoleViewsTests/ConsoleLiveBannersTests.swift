import Console
import ConsoleViews
import Foundation
import Operations
import Synchronization
import Testing

@testable import Store

/// The banners the log and status pages keep current without a reload: what `/banners` lists
/// as conditions start and end (the browser checks show the script following it).
@Suite("Console live banners")
struct ConsoleLiveBannersTests {
    /// The live banners `cookie`'s session is given, decoded.
    static func banners(_ controller: ConsoleController, cookie: String?) throws -> (status: Int, banners: [[String: String]]) {
        let cookies = cookie.map { [ConsoleController.sessionCookie: $0] } ?? [:]
        let response = controller.respond(to: ConsoleRequest(method: "GET", path: ConsolePage.bannersPath, cookies: cookies))
        #expect(response.header("Content-Type") == "application/json" && response.header("Cache-Control") == "no-store")
        return (response.status, try JSONDecoder().decode([[String: String]].self, from: Data(response.body.utf8)))
    }

    @Test("A store refusing writes, a node stopped uncleanly and a contact's restored keys are listed while they last")
    func conditionsComeAndGo() throws {
        let rig = try ConsoleControllerTests.Rig()
        let store = rig.store
        let refusal = Mutex<GatewayStatus.StoreRefusal?>(nil)
        let controller = ConsoleController(
            .init(
                store: store,
                status: { now in
                    var status = try GatewayStatus.read(from: store, now: now)
                    status.storeRefusal = refusal.withLock { $0 }
                    return status
                }, secure: false, version: "test"))
        let session = try rig.signIn("watch")
        #expect(try Self.banners(controller, cookie: session.cookie) == (200, []))

        let since = Date(timeIntervalSince1970: 1_790_000_000)
        refusal.withLock { $0 = GatewayStatus.StoreRefusal(since: since, waiting: 2, error: "database or disk is full") }
        try store.write { tx in
            try tx.db.execute(sql: "UPDATE contacts SET keys_restored_at = ? WHERE name = 'bob'", arguments: [since.timeIntervalSince1970])
        }
        let listed = try Self.banners(controller, cookie: session.cookie).banners
        #expect(listed.map { $0["key"] } == ["store", "contact:bob"] && listed.allSatisfy { $0["kind"] == "problem" })
        #expect(listed.first?["text"]?.hasPrefix("The store refuses writes since") == true)
        #expect(listed.last?["text"]?.hasPrefix("Contact bob: This side's keys were restored from a backup") == true)
        let page = controller.respond(
            to: ConsoleRequest(method: "GET", path: "/status", cookies: [ConsoleController.sessionCookie: session.cookie]))
        #expect(page.body.contains("<main data-banners=\"/banners\">") && page.body.contains("data-banner=\"contact:bob\""))

        refusal.withLock { $0 = nil }
        try store.write { tx in try tx.db.execute(sql: "UPDATE contacts SET keys_restored_at = NULL") }
        #expect(try Self.banners(controller, cookie: session.cookie) == (200, []))
    }

    @Test("The banners' small read says what the whole status says, and the console asks only it for them")
    func bannersFromTheSmallRead() throws {
        let rig = try ConsoleControllerTests.Rig()
        let store = rig.store
        let now = Date()
        var rng = SystemRandomNumberGenerator()
        _ = try Contacts.add(name: "carol", numbers: [try PhoneNumber("+15550003")], store: store, using: &rng)
        var south = GatewayNode(name: "south")
        south.place = "host-a:/var/lib/smsgw/smsgw.status"
        try store.write { tx in
            _ = try tx.claimNode(GatewayNode(name: "north"), now: now.addingTimeInterval(-3600))
            _ = try tx.claimNode(south, now: now)
            try tx.saveModemStatus(
                ModemStatusRecord(name: "m1", state: .recovering, connected: true, lastError: "no answer", node: "north"))
            try tx.db.execute(sql: "UPDATE contacts SET keys_restored_at = ? WHERE name = 'bob'", arguments: [now.timeIntervalSince1970])
        }
        let ended = GatewayStatus.EndedRuns(place: "host-a:/var/lib/smsgw/smsgw.status", holder: nil)
        let whole = StatusPage.banners(try GatewayStatus.read(from: store, now: now, ended: ended))
        #expect(whole.map { $0.key ?? $0.modem ?? "" } == ["node:north", "node:south", "contact:bob", "m1"])
        #expect(StatusPage.banners(try GatewayStatus.readForBanners(from: store, now: now, ended: ended)) == whole)

        // The whole status is not asked for: the log page's banners and `/banners` come from the small read.
        struct WholeStatusAsked: Error {}
        let controller = ConsoleController(
            .init(
                store: store, status: { _ in throw WholeStatusAsked() },
                banners: { try GatewayStatus.readForBanners(from: store, now: $0, ended: ended) }, secure: false, version: "test"))
        let session = try rig.signIn("watch")
        let listed = try Self.banners(controller, cookie: session.cookie)
        #expect(listed.status == 200 && listed.banners.map { $0["key"] } == ["node:north", "node:south", "contact:bob"])
        let log = controller.respond(
            to: ConsoleRequest(method: "GET", path: "/", cookies: [ConsoleController.sessionCookie: session.cookie]))
        #expect(log.status == 200 && log.body.contains("data-banner=\"contact:bob\"") && log.body.contains("Modem m1 is recovering"))
    }

    @Test("A node that stopped uncleanly is listed by its name, escaped only where it is shown")
    func nodeStoppedUncleanly() throws {
        var status = GatewayStatus(modems: [], outbox: [:], contacts: [])
        let record = NodeRecord(
            name: "north <1>", version: "t", startedAt: Date(), heartbeatAt: Date(), stoppedAt: nil, healthSeconds: 10, leaseSeconds: 30)
        status.nodes = [GatewayStatus.NodeStatus(record, modems: [], now: Date(), stoppedUncleanly: true)]
        let listed = try JSONDecoder().decode([[String: String]].self, from: Data(StatusPage.liveBanners(status).utf8))
        #expect(listed.map { $0["key"] } == ["node:north <1>"])
        #expect(listed.first?["text"]?.hasPrefix("Node north <1> stopped without a clean shutdown") == true)
        let page = StatusPage.render(status, viewer: ConsoleViewer(name: "w", role: .viewer, csrfToken: "c"), now: Date(), version: "t")
        #expect(page.markup.contains("data-banner=\"node:north &lt;1&gt;\""))
    }

    @Test("A PostgreSQL notification queue above 0.5 % is a banner; below it, none")
    func notificationQueue() throws {
        var status = GatewayStatus(modems: [], outbox: [:], contacts: [])
        for fraction in [nil, 0, 0.004, 0.005] as [Double?] {
            status.notificationQueueUsage = NotificationQueueUsage(fraction)
            #expect(StatusPage.banners(status).isEmpty, "\(String(describing: fraction))")
        }
        status.notificationQueueUsage = NotificationQueueUsage(0.031)
        let listed = try JSONDecoder().decode([[String: String]].self, from: Data(StatusPage.liveBanners(status).utf8))
        #expect(listed.map { $0["key"] } == ["notification-queue"] && listed.first?["kind"] == "problem")
        #expect(listed.first?["text"]?.hasPrefix("The PostgreSQL server's notification queue is 3.1 % full") == true)
    }

    @Test("Received SMS that wait on the modem for a fault of smsgw are a banner")
    func inboxFault() throws {
        var status = GatewayStatus(modems: [], outbox: [:], contacts: [])
        #expect(StatusPage.banners(status).isEmpty)
        status.inboxFault = GatewayStatus.InboxFault(since: Date(), waiting: 2, error: "a <rule> broke")
        let listed = try JSONDecoder().decode([[String: String]].self, from: Data(StatusPage.liveBanners(status).utf8))
        #expect(listed.map { $0["key"] } == ["inbox-fault"] && listed.first?["kind"] == "problem")
        #expect(listed.first?["text"]?.hasPrefix("2 received SMS cannot be recorded since") == true)
        let page = StatusPage.render(status, viewer: ConsoleViewer(name: "w", role: .viewer, csrfToken: "c"), now: Date(), version: "t")
        #expect(page.markup.contains("a &lt;rule&gt; broke") && !page.markup.contains("a <rule> broke"))
    }

    @Test("Sent SMS never confirmed past the threshold are a banner")
    func unconfirmed() throws {
        var status = GatewayStatus(modems: [], outbox: [:], contacts: [])
        #expect(StatusPage.banners(status).isEmpty)
        status.unconfirmed = GatewayStatus.Unconfirmed(count: 3, oldestSentAt: Date())
        let listed = try JSONDecoder().decode([[String: String]].self, from: Data(StatusPage.liveBanners(status).utf8))
        #expect(listed.map { $0["key"] } == ["unconfirmed"] && listed.first?["kind"] == "problem")
        #expect(listed.first?["text"]?.hasPrefix("3 sent SMS have had no delivery report or acknowledgement for over 6 hours") == true)
    }

    @Test("Automatic backups are a banner when the latest attempt failed or the newest is overdue; working or off, none")
    func backups() throws {
        var status = GatewayStatus(modems: [], outbox: [:], contacts: [])
        #expect(StatusPage.banners(status).isEmpty)
        var backup = GatewayStatus.BackupStatus(
            directory: "/var/backups/smsgw", intervalSeconds: 3600, keep: 7, lastSuccessAt: Date(), nextDueAt: Date())
        status.backup = GatewayStatus.Backups(backup)
        #expect(StatusPage.banners(status).isEmpty)
        backup.overdue = true
        status.backup = GatewayStatus.Backups(backup)
        #expect(StatusPage.banners(status).first?.text.contains("over twice its interval") == true)
        backup.lastError = "The automatic backup smsgw-20261125-013456.sqlite could not be written (database or disk is full); free space."
        backup.consecutiveFailures = 2
        status.backup = GatewayStatus.Backups(backup)
        let listed = try JSONDecoder().decode([[String: String]].self, from: Data(StatusPage.liveBanners(status).utf8))
        #expect(listed.map { $0["key"] } == ["backup"] && listed.first?["kind"] == "problem")
        #expect(
            listed.first?["text"]?.hasPrefix(
                "The last 2 automatic backups to /var/backups/smsgw failed: The automatic backup smsgw-20261125-013456.sqlite could not be written (database or disk is full); free space. The newest backup is from "
            ) == true, "\(listed)")
    }

    @Test("The status page lists the automatic backups as `smsgw status` does: newest, next, the last error; off, no section")
    func backupsSection() throws {
        let viewer = ConsoleViewer(name: "w", role: .viewer, csrfToken: "c")
        var status = GatewayStatus(modems: [], outbox: [:], contacts: [])
        #expect(!StatusPage.render(status, viewer: viewer, now: Date(), version: "t").markup.contains("<h2>Backups</h2>"))
        var backup = GatewayStatus.BackupStatus(
            directory: "/var/backups/smsgw", intervalSeconds: 3600, keep: 7, lastSuccessAt: Date(timeIntervalSince1970: 1_800_000_000),
            lastFile: "/var/backups/smsgw/smsgw-20270115-080000.sqlite", nextDueAt: Date(timeIntervalSince1970: 1_800_003_600))
        backup.lastError = "a <disk> is full"
        status.backup = GatewayStatus.Backups(backup)
        let page = StatusPage.render(status, viewer: viewer, now: Date(), version: "t").markup
        #expect(page.contains("<h2>Backups</h2>"), "\(page)")
        #expect(page.contains("2027-01-15 08:00:00 UTC</time> /var/backups/smsgw/smsgw-20270115-080000.sqlite"), "\(page)")
        #expect(page.contains("2027-01-15 09:00:00 UTC"), "\(page)")
        #expect(page.contains("<dd>a &lt;disk&gt; is full</dd>"), "\(page)")
    }

    @Test("A viewer sees the backups' and modems' state and times without paths or error texts; an operator sees them")
    func pathsForOperatorsOnly() throws {
        let rig = try ConsoleControllerTests.Rig()
        let store = rig.store
        let controller = ConsoleController(
            .init(
                store: store,
                status: { now in
                    var status = try GatewayStatus.read(from: store, now: now)
                    status.modems = [
                        ModemStatusRecord(
                            name: "m1", state: .recovering, connected: false, lastError: "The device /dev/ttyUSB7 went away.",
                            updatedAt: now)
                    ]
                    status.storeRefusal = GatewayStatus.StoreRefusal(
                        since: now, waiting: 1, error: "disk I/O error at /srv/smsgw/smsgw.sqlite")
                    status.backup = GatewayStatus.Backups(
                        GatewayStatus.BackupStatus(
                            directory: "/srv/backups", intervalSeconds: 3600, keep: 7, lastSuccessAt: now,
                            lastFile: "/srv/backups/smsgw-20270115-080000.sqlite", lastAttemptAt: now,
                            lastError: "The automatic backup /srv/backups/smsgw-x.sqlite could not be written.", consecutiveFailures: 2,
                            nextDueAt: now))
                    return status
                }, secure: false, version: "test"))
        for (name, seesPaths) in [("watch", false), ("ops", true), ("chief", true)] {
            let session = try rig.signIn(name)
            var shown: [String] = []
            for path in ["/status", "/"] {
                let page = controller.respond(
                    to: ConsoleRequest(method: "GET", path: path, cookies: [ConsoleController.sessionCookie: session.cookie]))
                #expect(page.status == 200)
                shown.append(page.body)
            }
            shown += try Self.banners(controller, cookie: session.cookie).banners.compactMap { $0["text"] }
            let all = shown.joined(separator: "\n")
            for path in ["/srv/backups", "/dev/ttyUSB7", "/srv/smsgw/smsgw.sqlite"] {
                #expect(all.contains(path) == seesPaths, "\(name) sees \(path): \(!seesPaths)")
            }
            #expect(shown[0].contains("<h2>Backups</h2>") && shown[0].contains("failing (2 attempts)"), "\(name): \(shown[0])")
            #expect(all.contains("The last 2 automatic backups") && all.contains("Modem m1 is recovering"), "\(name): \(all)")
        }
    }

    @Test("Without a live session the banners are refused")
    func signedOut() throws {
        let rig = try ConsoleControllerTests.Rig()
        #expect(try Self.banners(rig.controller, cookie: nil) == (401, []))
        #expect(try Self.banners(rig.controller, cookie: "not-a-session") == (401, []))
    }
}
