public import Operations
public import Store

/// One message and the timeline of its states (queued, sent, delivered or failed, …), with its
/// SMS's submission attempts and last error. With scripts on, the timeline follows the message
/// live over the event stream; without, a reload shows it as stored.
public enum MessagePage {
    /// The page; `outbox` is the state of the message's SMS while it waits in the outbox
    /// (`queued` or `submitting`, which the log's timeline does not record).
    public static func render(_ detail: MessageDetail, outbox: OutboxState? = nil, viewer: ConsoleViewer) -> HTML {
        let message = detail.history.message
        let steps = detail.history.history.map { change -> HTML in
            "<li><span class=\"state\">\(change.status.rawValue)</span> \(ConsolePage.time(change.time))</li>"
        }
        let outgoing = message.direction == .outgoing
        let body: HTML = """
            <dl class="facts">
            <dt>Direction</dt><dd>\(outgoing ? "outgoing" : "incoming")</dd>
            <dt>Contact</dt><dd>\(message.contact, or: "unknown")</dd>
            <dt>Number</dt><dd>\(message.number, or: "-")</dd>
            <dt>Status</dt><dd class="status">\(message.status.rawValue)\(HTML.when(LogPage.untrusted.contains(message.status), " <span class=\"flag\">not verified</span>"))</dd>
            <dt>Text</dt><dd class="text">\(message.text, or: "-")</dd>
            \(HTML.when(outgoing, "<dt>SMS</dt><dd>\(detail.parts)</dd><dt>Attempts</dt><dd>\(detail.attempts)</dd>"))
            \(outbox.map { "<dt class=\"outbox\">Outbox</dt><dd class=\"outbox\">\($0.rawValue)</dd>" as HTML } ?? .empty)
            \(detail.lastError.map { "<dt>Last error</dt><dd>\($0)</dd>" as HTML } ?? .empty)
            \(message.error.map { "<dt>Error</dt><dd>\($0)</dd>" as HTML } ?? .empty)
            </dl>
            \(unconfirmed(detail, viewer: viewer))
            <h2>Timeline</h2>
            <ol class="timeline" data-live="/events" data-message="\(message.id)" aria-live="polite">\(steps)</ol>
            <p><a href="/">Back to the log</a></p>
            """
        return ConsolePage.document(title: "Message \(message.id)", viewer: viewer, section: .log, body: body)
    }

    /// The message's page, where it is read and marked.
    public static func path(_ id: Int64) -> String { "/log/\(id)" }

    /// Its SMS that went out and wait for a confirmation, with a button for an operator who asked
    /// the contact to mark them checked, so they stop counting as unconfirmed in the status.
    static func unconfirmed(_ detail: MessageDetail, viewer: ConsoleViewer) -> HTML {
        let count = detail.awaitingConfirmation
        guard count > 0 else { return .empty }
        let button = HTML.when(
            viewer.may(.operator),
            ConsolePage.button("Mark as checked with the contact", action: "\(path(detail.history.message.id))/checked", viewer: viewer))
        let sms = count == 1 ? "1 SMS went out and has" : "\(count) SMS went out and have"
        return """
            <p class="unconfirmed">\(sms) had neither a delivery report nor an acknowledgement yet. \(button)</p>
            """
    }
}
