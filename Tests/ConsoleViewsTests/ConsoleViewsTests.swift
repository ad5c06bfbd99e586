import ConsoleViews
import Foundation
import GSM7
import Operations
import Store
import TestSupport
import Testing

/// The console's pages rendered from real values read from a real store: hostile text from an
/// SMS renders inert, no page carries inline script or style, roles decide what is offered, the
/// log page stays small, and the send counter's tables are GSM7's own.
@Suite("Console pages")
struct ConsoleViewsTests {
    static let hostile = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>\u{1B}[31m\u{202E}gnp.exe\u{0}"
    static let viewer = ConsoleViewer(name: "watch", role: .viewer, csrfToken: "csrf-viewer")
    static let operatorViewer = ConsoleViewer(name: "ops", role: .operator, csrfToken: "csrf-ops")
    static let admin = ConsoleViewer(name: "chief", role: .admin, csrfToken: "csrf-admin")

    /// A store with a contact whose name is hostile too, a decrypted and a rejected message, a
    /// failed outbox row, and a modem that is down; then the pages' values read from it.
    func withValues(_ body: ([LoggedMessage], GatewayStatus) throws -> Void) throws {
        try TestStore.withAccount { _, _, store in
            var rng = SystemRandomNumberGenerator()
            _ = try Contacts.add(name: "bob <b>&", numbers: [try PhoneNumber("+15550001")], store: store, using: &rng)
            try store.write { tx in
                let bob = try tx.contact(named: "bob <b>&")
                try tx.appendLog(NewLogEntry(direction: .incoming, contact: bob, status: .decrypted, text: Self.hostile))
                try tx.appendLog(
                    NewLogEntry(
                        direction: .incoming, contact: nil, remoteNumber: "EVIL\u{202E}", status: .rejected, text: nil, error: Self.hostile)
                )
                try tx.saveModemStatus(
                    ModemStatusRecord(
                        name: "m1", state: .recovering, connected: false, networkOperator: Self.hostile, lastError: "no carrier"))
            }
            let messages = try MessageLog.recent(limit: 10, store: store).messages.reversed()
            try body(Array(messages), try GatewayStatus.read(from: store, now: Date()))
        }
    }

    /// Every page a viewer of `role` can see.
    func pages(_ messages: [LoggedMessage], _ status: GatewayStatus, as viewer: ConsoleViewer) -> [String] {
        [
            LogPage.render(messages, filter: LogFilter(), contacts: status.contacts.map(\.name), viewer: viewer).markup,
            StatusPage.render(status, viewer: viewer, now: Date(), version: "test").markup,
            ContactsPage.render(status.contacts, viewer: viewer).markup,
            SendPage.render(contacts: status.contacts, viewer: viewer, text: Self.hostile).markup,
            AdminPage.render(operators: [], audit: [], viewer: viewer).markup,
            LoginPage.render(problem: Self.hostile, name: Self.hostile, csrfToken: "t").markup,
        ]
    }

    @Test("Text, senders, names and operator names from anywhere render as inert text on every page")
    func hostileTextIsInert() throws {
        try withValues { messages, status in
            for page in pages(messages, status, as: Self.admin) {
                #expect(!page.contains("<script>alert"))
                #expect(!page.contains("<img"))
                #expect(!page.contains("onerror=alert(2)>") || page.contains("onerror=alert(2)&gt;"))
                #expect(!page.contains("\u{1B}") && !page.contains("\u{202E}") && !page.contains("\u{0}"))
                #expect(!page.contains("<b>&"))
            }
            let log = LogPage.render(messages, filter: LogFilter(), contacts: [], viewer: Self.viewer).markup
            #expect(log.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img"))
            #expect(log.contains("[U+001B][31m[U+202E]gnp.exe[U+0000]"))
            #expect(log.contains("EVIL[U+202E]"))
        }
        // The marks and separators the command line escapes, the page and its script show as codes too.
        #expect(HTML.escape("a\u{200F}b\u{200E}c\u{061C}d\u{2028}e\u{2029}") == "a[U+200F]b[U+200E]c[U+061C]d[U+2028]e[U+2029]")
        #expect(ConsoleAssets.asset(at: "/assets/console.js")?.body.contains(#"\u061C\u200E\u200F\u2028\u2029"#) == true)
    }

    @Test("No page has inline script, inline style or event-handler attributes (the CSP forbids them)")
    func noInlineCode() throws {
        try withValues { messages, status in
            for page in pages(messages, status, as: Self.admin) {
                #expect(page.components(separatedBy: "<script").count == 2)
                #expect(page.contains("<script src=\"/assets/console.js\" defer></script>"))
                #expect(!page.contains("<style") && !page.contains(" style="))
                // Attribute values are quoted and escaped, so a hostile text inside one is no attribute.
                let tags = page.replacingOccurrences(of: #"="[^"]*""#, with: "=\"\"", options: .regularExpression)
                let handler = tags.range(of: #"<[^>]*\son[a-z]+="#, options: .regularExpression)
                #expect(handler == nil, "\(handler.map { String(tags[$0]) } ?? "")")
            }
        }
    }

    @Test("A failed verification is drawn apart from a decrypted message, by class and label")
    func untrustedRows() throws {
        try withValues { messages, _ in
            let log = LogPage.render(messages, filter: LogFilter(), contacts: [], viewer: Self.viewer).markup
            let rejected = try #require(messages.first { $0.status == .rejected })
            let decrypted = try #require(messages.first { $0.status == .decrypted })
            #expect(log.contains("<tr id=\"m\(rejected.id)\" class=\"untrusted in\""))
            #expect(log.contains("<tr id=\"m\(decrypted.id)\" class=\"verified in\""))
            #expect(log.components(separatedBy: "not verified").count == 2)
            // Newest first, as the list was given.
            #expect(log.range(of: "id=\"m\(rejected.id)\"")!.lowerBound < log.range(of: "id=\"m\(decrypted.id)\"")!.lowerBound)
        }
    }

    @Test("Roles decide what is offered: a viewer gets no send, retry, resync or admin")
    func roles() throws {
        try withValues { messages, status in
            let seen = pages(messages, status, as: Self.viewer).joined()
            #expect(!seen.contains("href=\"/send\"") && !seen.contains("href=\"/admin\""))
            #expect(!StatusPage.render(status, viewer: Self.viewer, now: Date(), version: "t").markup.contains(">Resync<"))
            #expect(!ContactsPage.render(status.contacts, viewer: Self.viewer).markup.contains("/resync"))

            let contacts = ContactsPage.render(status.contacts, viewer: Self.operatorViewer).markup
            // bob is not paired yet: nothing to resync.
            #expect(!contacts.contains("/resync"))
            let operatorPages = pages(messages, status, as: Self.operatorViewer).joined()
            #expect(operatorPages.contains("href=\"/send\"") && !operatorPages.contains("href=\"/admin\""))
            #expect(pages(messages, status, as: Self.admin).joined().contains("href=\"/admin\""))
            // Every form that changes something carries the viewer's CSRF token.
            let admin = AdminPage.render(operators: [], audit: [], viewer: Self.admin).markup
            #expect(admin.contains("<input type=\"hidden\" name=\"csrf\" value=\"csrf-admin\">"))
        }
    }

    @Test("A modem that is down and a stopped daemon get a problem banner")
    func banners() throws {
        try withValues { _, status in
            var stopped = status
            stopped.daemon = .notRunning
            let banners = StatusPage.banners(stopped)
            #expect(banners.count == 2 && banners.allSatisfy { $0.kind == .problem })
            #expect(banners[1].text == "Modem m1 is recovering: no carrier")
        }
    }

    @Test("Contact names in addresses are percent-encoded")
    func addresses() {
        #expect(HTML("<a href=\"/contacts/\(segment: "bob <b>&/x")\">").markup == "<a href=\"/contacts/bob%20%3Cb%3E%26%2Fx\">")
    }

    @Test("The log page with 200 messages, its stylesheet and script weigh under 100 KB")
    func pageWeight() throws {
        try withValues { messages, _ in
            let many = Array(repeating: messages, count: 100).flatMap { $0 }
            let page = LogPage.render(many, filter: LogFilter(), contacts: ["bob"], viewer: Self.viewer).markup
            let css = try #require(ConsoleAssets.asset(at: ConsoleAssets.stylesheetPath)).body
            let script = try #require(ConsoleAssets.asset(at: ConsoleAssets.scriptPath)).body
            let total = page.utf8.count + css.utf8.count + script.utf8.count
            #expect(total < 100_000, "\(total) bytes")
        }
    }

    @Test("The status page lists the nodes with their modems, and a node past its lease gets a problem banner")
    func nodesOnTheStatusPage() throws {
        try TestStore.withAccount { _, _, store in
            let now = Date()
            try store.write { tx in
                try tx.startNode(GatewayNode(name: "north <1>", healthSeconds: 10), now: now - 100)
                try tx.startNode(GatewayNode(name: "south", version: "9.9", healthSeconds: 10), now: now)
                try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true, node: "north <1>"))
            }
            let status = try GatewayStatus.read(from: store, now: now)
            #expect(status.nodes.map(\.state) == [.down, .up] && status.nodes.map(\.modems) == [["m1"], []])
            let page = StatusPage.render(status, viewer: Self.viewer, now: now, version: "test").markup
            #expect(page.contains("<h2>Nodes</h2>") && page.contains("<td>north &lt;1&gt;</td><td>down</td>"))
            #expect(page.contains("<td>south</td><td>up</td>") && page.contains("<td>9.9</td>"))
            #expect(page.contains("<dt>Node</dt><dd>north &lt;1&gt;</dd>"))
            #expect(StatusPage.banners(status).contains { $0.text.contains("Node north <1> is down") })
        }
    }

    @Test("The send counter's tables are GSM7's alphabet and extension table, and the protocol's limits")
    func counterTables() throws {
        let page = SendPage.render(contacts: [], viewer: Self.operatorViewer).markup
        func numbers(_ attribute: String) throws -> [UInt32] {
            let start = try #require(page.range(of: "\(attribute)=\"")).upperBound
            let end = try #require(page[start...].firstIndex(of: "\""))
            return page[start..<end].split(separator: ",").compactMap { UInt32($0) }
        }
        let basic = try numbers("data-basic")
        #expect(basic.count == 127)
        #expect(Set(basic) == Set(GSM7.defaultAlphabet.enumerated().filter { $0.offset != 0x1B }.map(\.element.value)))
        #expect(try numbers("data-extension") == GSM7.extensionCharacters.map(\.value))
        #expect(try numbers("data-capacity") == [141] && numbers("data-segment") == [136] && numbers("data-max-parts") == [8])
    }
}
