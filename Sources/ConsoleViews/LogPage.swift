public import Operations
public import Store

/// What the log page shows: filters as the viewer set them in the query string.
public struct LogFilter: Sendable, Hashable {
    public var contact: String?
    public var direction: MessageDirection?
    public var status: MessageStatus?
    /// Words every shown text contains (without regard to case).
    public var search: String?

    public init(contact: String? = nil, direction: MessageDirection? = nil, status: MessageStatus? = nil, search: String? = nil) {
        self.contact = contact
        self.direction = direction
        self.status = status
        self.search = search
    }
}

/// The live message log: newest first, filters, and rows the script adds as they are committed.
public enum LogPage {
    /// The statuses of messages that did not verify or could not be read: drawn apart from decrypted ones.
    static let untrusted: Set<MessageStatus> = [.rejected, .unreadable, .plain, .duplicate]

    /// The log page: `messages` newest first; `contacts` for the filter's choice; `banners` the
    /// status page's problems (a modem down), so a quiet log is not taken for a healthy gateway.
    /// `searchedAll` false: the search stopped after the newest ``Operations/MessageLog/searchDepth``
    /// messages that pass the other filters, which the page says.
    public static func render(
        _ messages: [LoggedMessage], filter: LogFilter, contacts: [String], viewer: ConsoleViewer, banners: [Banner] = [],
        searchedAll: Bool = true
    ) -> HTML {
        let body: HTML = """
            \(filterForm(filter, contacts: contacts))
            <table class="log" data-live="/events" aria-live="polite">
            <thead><tr><th>Time</th><th>Dir</th><th>Contact</th><th>Status</th><th>Text</th></tr></thead>
            <tbody>
            \(messages.map(row))
            </tbody>
            </table>
            \(HTML.when(messages.isEmpty, "<p class=\"none\">No messages match.</p>"))
            \(HTML.when(!searchedAll, "<p class=\"none\">The search looked through the newest \(MessageLog.searchDepth) messages that pass the other filters; narrow them to look further back.</p>"))
            """
        return ConsolePage.document(title: "Log", viewer: viewer, section: .log, banners: banners, liveBanners: true, body: body)
    }

    /// One row: a message that failed verification is marked with a class and a label, not a colour alone.
    static func row(_ message: LoggedMessage) -> HTML {
        let bad = untrusted.contains(message.status)
        let who = message.contact ?? message.number ?? "unknown"
        let text = message.text ?? message.error ?? ""
        let label: HTML = bad ? "<span class=\"flag\">not verified</span> " : ""
        return """
            <tr id="m\(message.id)" class="\(bad ? "untrusted" : "verified") \(message.direction.rawValue)" data-status="\(message.status.rawValue)">\
            <td>\(ConsolePage.time(message.time))</td>\
            <td>\(message.direction == .incoming ? "in" : "out")</td>\
            <td>\(who)</td>\
            <td><a href="/log/\(message.id)">\(message.status.rawValue)</a></td>\
            <td class="text">\(label)\(text)</td></tr>

            """
    }

    static func filterForm(_ filter: LogFilter, contacts: [String]) -> HTML {
        func option(_ value: String, _ label: String, selected: Bool) -> HTML {
            "<option value=\"\(value)\"\(HTML.when(selected, " selected"))>\(label)</option>"
        }
        let contactOptions =
            [option("", "all contacts", selected: filter.contact == nil)]
            + contacts.map { option($0, $0, selected: filter.contact?.lowercased() == $0.lowercased()) }
        let directions = [
            option("", "both directions", selected: filter.direction == nil),
            option("in", "in", selected: filter.direction == .incoming), option("out", "out", selected: filter.direction == .outgoing),
        ]
        let statuses =
            [option("", "any status", selected: filter.status == nil)]
            + MessageStatus.known.map { option($0.rawValue, $0.rawValue, selected: filter.status == $0) }
        return """
            <form class="filters" method="get" action="/">
            <label>Contact <select name="contact">\(contactOptions)</select></label>
            <label>Direction <select name="direction">\(directions)</select></label>
            <label>Status <select name="status">\(statuses)</select></label>
            <label>Search <input type="search" name="q" value="\(filter.search ?? "")"></label>
            <button>Filter</button>
            </form>
            """
    }
}
