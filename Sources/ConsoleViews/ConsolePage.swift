import Foundation
public import Store

/// Who is looking at a page: the signed-in operator, what they may do, and the token each of
/// their forms carries.
public struct ConsoleViewer: Sendable, Hashable {
    public var name: String
    public var role: OperatorRole
    public var csrfToken: String

    public init(name: String, role: OperatorRole, csrfToken: String) {
        self.name = name
        self.role = role
        self.csrfToken = csrfToken
    }

    /// Whether the viewer may do what `role` may (the server checks again on every request).
    public func may(_ role: OperatorRole) -> Bool { self.role.allows(role) }
}

/// The console's sections, in the order of its navigation.
public enum ConsoleSection: String, Sendable, CaseIterable {
    case log, status, contacts, send, admin

    /// The section's address.
    public var path: String { self == .log ? "/" : "/\(rawValue)" }

    /// The least role that sees the section.
    public var role: OperatorRole {
        switch self {
        case .log, .status, .contacts: .viewer
        case .send: .operator
        case .admin: .admin
        }
    }

    var title: String {
        switch self {
        case .log: "Log"
        case .status: "Status"
        case .contacts: "Contacts"
        case .send: "Send"
        case .admin: "Admin"
        }
    }
}

/// A line at the top of a page: a problem (the daemon or a modem down, an action refused) or a
/// notice (an action done).
public struct Banner: Sendable, Hashable {
    public enum Kind: String, Sendable { case problem, notice }
    public var kind: Kind
    public var text: String
    /// The modem it is about, if any: the page's script removes it when that modem is up again.
    public var modem: String?
    /// What condition it is about (`daemon`, `store`, `node:NAME`, `contact:NAME`), if the page's
    /// script keeps it current: it adds, changes and removes such banners as the console's
    /// `/banners` lists them.
    public var key: String?

    public init(_ kind: Kind, _ text: String, modem: String? = nil, key: String? = nil) {
        self.kind = kind
        self.text = text
        self.modem = modem
        self.key = key
    }
}

/// The frame of every page: one stylesheet and one script from the console's own assets, no
/// inline script or style (the Content-Security-Policy forbids them), a navigation showing only
/// what the viewer's role may open.
public enum ConsolePage {
    /// Where a page with live banners asks for them (``StatusPage/liveBanners(_:)``).
    public static let bannersPath = "/banners"

    /// A whole document.
    /// `liveBanners`: the page's script keeps the banners with a ``Banner/key`` current without a
    /// reload (the log and status pages).
    public static func document(
        title: String, viewer: ConsoleViewer?, section: ConsoleSection?, banners: [Banner] = [], liveBanners: Bool = false, body: HTML
    ) -> HTML {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(title) · smsgw</title>
        <link rel="stylesheet" href="\(ConsoleAssets.stylesheetPath)">
        <script src="\(ConsoleAssets.scriptPath)" defer></script>
        </head>
        <body>
        <header class="bar">
        <a class="brand" href="/">smsgw</a>
        \(viewer.map { navigation($0, current: section) } ?? .empty)
        </header>
        <main\(HTML.when(liveBanners, " data-banners=\"\(ConsolePage.bannersPath)\""))>
        \(banners.map(banner))
        <h1>\(title)</h1>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    static func navigation(_ viewer: ConsoleViewer, current: ConsoleSection?) -> HTML {
        let links = ConsoleSection.allCases.filter { viewer.may($0.role) }.map { section -> HTML in
            let mark: HTML = section == current ? " aria-current=\"page\"" : ""
            return "<a href=\"\(section.path)\"\(mark)>\(section.title)</a>"
        }
        return """
            <nav>\(links)</nav>
            <form class="signout" method="post" action="/logout">\(csrfField(viewer))<span>\(viewer.name) · \(viewer.role.rawValue)</span> <button>Sign out</button></form>
            """
    }

    static func banner(_ banner: Banner) -> HTML {
        let modem: HTML = banner.modem.map { " data-modem=\"\($0)\"" } ?? .empty
        let key: HTML = banner.key.map { " data-banner=\"\($0)\"" } ?? .empty
        return
            "<p class=\"banner \(banner.kind.rawValue)\"\(modem)\(key) role=\"\(banner.kind == .problem ? "alert" : "status")\">\(banner.text)</p>\n"
    }

    /// The hidden field every state-changing form carries.
    static func csrfField(_ viewer: ConsoleViewer) -> HTML {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(viewer.csrfToken)\">"
    }

    /// A one-button form that posts to `action` (a retry, a resync).
    static func button(_ label: String, action: HTML, viewer: ConsoleViewer) -> HTML {
        "<form class=\"inline\" method=\"post\" action=\"\(action)\">\(csrfField(viewer))<button>\(label)</button></form>"
    }

    /// A time in UTC, which the script shows in the browser's zone (the UTC time stays on hover).
    static func time(_ date: Date?) -> HTML {
        guard let date else { return "<span class=\"none\">never</span>" }
        let iso = date.formatted(.iso8601)
        let utc = iso.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
        return "<time datetime=\"\(iso)\" title=\"\(utc)\">\(utc)</time>"
    }
}
