public import Operations

/// One message and the timeline of its states (queued, sent, delivered or failed, …).
public enum MessagePage {
    public static func render(_ history: MessageHistory, viewer: ConsoleViewer) -> HTML {
        let message = history.message
        let steps = history.history.map { change -> HTML in
            "<li><span class=\"state\">\(change.status.rawValue)</span> \(ConsolePage.time(change.time))</li>"
        }
        let body: HTML = """
            <dl class="facts">
            <dt>Direction</dt><dd>\(message.direction == .incoming ? "incoming" : "outgoing")</dd>
            <dt>Contact</dt><dd>\(message.contact, or: "unknown")</dd>
            <dt>Number</dt><dd>\(message.number, or: "-")</dd>
            <dt>Status</dt><dd>\(message.status.rawValue)\(HTML.when(LogPage.untrusted.contains(message.status), " <span class=\"flag\">not verified</span>"))</dd>
            <dt>Text</dt><dd class="text">\(message.text, or: "-")</dd>
            \(message.error.map { "<dt>Error</dt><dd>\($0)</dd>" as HTML } ?? .empty)
            </dl>
            <h2>Timeline</h2>
            <ol class="timeline">\(steps)</ol>
            <p><a href="/">Back to the log</a></p>
            """
        return ConsolePage.document(title: "Message \(message.id)", viewer: viewer, section: .log, body: body)
    }
}
