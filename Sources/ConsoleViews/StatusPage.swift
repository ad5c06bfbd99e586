public import Foundation
public import Operations
import Store

/// Each modem's phase, signal, network, counters and last error; the nodes; the outbox by state; messages
/// stuck or failed, with a retry for those who may; the automatic backups when they are on.
public enum StatusPage {
    /// - Parameter retries: The outlook of a retry of each failed message listed, by its id: a
    ///   sentence beside its retry where one cannot help, and no retry where one is refused.
    public static func render(
        _ status: GatewayStatus, viewer: ConsoleViewer, now: Date, version: String, retries: [Int64: RetryOutlook] = [:]
    ) -> HTML {
        let body: HTML = """
            <section class="modems" data-live="/events"><h2>Modems</h2>
            \(HTML.when(status.modems.isEmpty, "<p class=\"none\">No modem has reported yet.</p>"))
            <div class="cards">\(status.modems.map(modem))</div>
            </section>
            \(HTML.when(!status.nodes.isEmpty, nodes(status.nodes)))
            <section><h2>Outbox</h2>
            <ul class="counts">\(OutboxState.allCases.map { state -> HTML in "<li><span>\(state.rawValue)</span> <b>\(status.outbox[state] ?? 0)</b></li>" })</ul>
            \(status.unconfirmed.map { unconfirmed($0, viewer: viewer) } ?? .empty)
            \(HTML.when(!status.queue.isEmpty, queue(status.queue, viewer: viewer, retries: retries)))
            </section>
            \(status.backup.status.map(backups) ?? .empty)
            <p class="version">smsgw \(version)</p>
            """
        return ConsolePage.document(
            title: "Status", viewer: viewer, section: .status, banners: banners(status), liveBanners: true, body: body)
    }

    /// A problem banner for a daemon that is not running, for a store that refuses writes, for a
    /// PostgreSQL notification queue above its threshold, for automatic backups that failed or are
    /// overdue, for each node that is down or stopped
    /// without a clean shutdown, for each contact whose keys were restored from a backup and not
    /// resynced since, and for each modem that is not ready; the log page shows them too. All but the modems' carry a ``Banner/key``: the page's script
    /// keeps them current from ``liveBanners(_:)`` (the modems' follow their events).
    public static func banners(_ status: GatewayStatus) -> [Banner] {
        var banners: [Banner] = []
        if status.daemon?.running == false {
            banners.append(
                Banner(
                    .problem, "The daemon is not running: nothing is sent or received. The modems are shown as it last recorded them.",
                    key: "daemon"))
        }
        if let refusal = status.storeRefusal { banners.append(Banner(.problem, refusal.sentence, key: "store")) }
        if let fault = status.inboxFault { banners.append(Banner(.problem, fault.sentence, key: "inbox-fault")) }
        if let unconfirmed = status.unconfirmed { banners.append(Banner(.problem, unconfirmed.sentence, key: "unconfirmed")) }
        if let warning = status.notificationQueueUsage.warning {
            banners.append(Banner(.problem, warning, key: "notification-queue"))
        }
        if let warning = status.backup.warning { banners.append(Banner(.problem, warning, key: "backup")) }
        for node in status.nodes where node.state == .down || node.stoppedUncleanly {
            let sentence =
                node.state == .down
                ? "Node \(node.name) is down (no heartbeat within its lease): the other nodes send its messages and pinned contacts."
                : "Node \(node.name) stopped without a clean shutdown; its lease would have ended at \(OperationsJSON.timestamp(node.leaseEndsAt)), and until then the other nodes leave its messages."
            banners.append(Banner(.problem, sentence, key: "node:\(node.name)"))
        }
        for contact in status.contacts {
            guard let restored = contact.sync.keysRestoredAt else { continue }
            let advice = contact.sync.advice ?? .resyncAfterRestore(restoredAt: restored)
            let sentence =
                advice.action == .resync
                ? advice.sentence
                : "This side's keys were restored from a backup on \(InternetTime.string(restored)); nothing is sent until a resync completes. \(advice.sentence)"
            banners.append(Banner(.problem, "Contact \(contact.name): \(sentence)", key: "contact:\(contact.name)"))
        }
        for modem in status.modems where modem.state != .ready {
            banners.append(
                Banner(
                    .problem, "Modem \(modem.name) is \(modem.state.rawValue)\(modem.lastError.map { ": \($0)" } ?? ".")", modem: modem.name
                ))
        }
        return banners
    }

    /// The banners with a key, as the page's script asks for them: a JSON array of
    /// `{"key","kind","text"}`, the texts as they are (the script shows them as text).
    public static func liveBanners(_ status: GatewayStatus) -> String {
        struct Live: Encodable {
            var key: String
            var kind: String
            var text: String
        }
        let live = banners(status).compactMap { banner in banner.key.map { Live(key: $0, kind: banner.kind.rawValue, text: banner.text) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(live)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// The sent SMS never confirmed, with a button for an operator who asked the contacts to mark
    /// them checked (the banner above says what they are).
    static func unconfirmed(_ unconfirmed: GatewayStatus.Unconfirmed, viewer: ConsoleViewer) -> HTML {
        let count = unconfirmed.count == 1 ? "1 sent SMS" : "\(unconfirmed.count) sent SMS"
        let button = HTML.when(
            viewer.may(.operator), ConsolePage.button("Mark as checked with the contacts", action: "\(checkedPath)", viewer: viewer))
        return """
            <p class="unconfirmed">\(count) never confirmed, the oldest sent \(ConsolePage.time(unconfirmed.oldestSentAt)). \(button)</p>
            """
    }

    /// Where the status page's button marks every unconfirmed SMS as checked.
    public static let checkedPath = "/status/unconfirmed/checked"

    static func modem(_ modem: ModemStatusRecord) -> HTML {
        """
        <article class="card \(modem.state == .ready ? "up" : "down")">
        <h3>\(modem.name)</h3>
        <dl class="facts">
        <dt>Phase</dt><dd>\(modem.state.rawValue)\(modem.connected ? "" : ", not connected")</dd>
        <dt>Signal</dt><dd>\(modem.signalPercent.map { "\($0) %" }, or: "unknown")</dd>
        <dt>Network</dt><dd>\(modem.networkOperator, or: "unknown")</dd>
        <dt>Sent</dt><dd>\(modem.sentCount)</dd>
        <dt>Received</dt><dd>\(modem.receivedCount)</dd>
        <dt>Last error</dt><dd>\(modem.lastError, or: "none")</dd>
        <dt>Updated</dt><dd>\(ConsolePage.time(modem.updatedAt))</dd>
        \(HTML.when(modem.node != nil, "<dt>Node</dt><dd>\(modem.node ?? "")</dd>"))
        </dl>
        </article>
        """
    }

    /// The nodes sharing the store: each one's state, last heartbeat and modems.
    static func nodes(_ nodes: [GatewayStatus.NodeStatus]) -> HTML {
        let rows = nodes.map { node -> HTML in
            """
            <tr class="\(node.state.rawValue)"><td>\(node.name)</td><td>\(node.state.rawValue)\(node.stoppedUncleanly ? ", stopped without a clean shutdown" : "")</td>\
            <td>\(ConsolePage.time(node.heartbeatAt))</td><td>\(node.modems.joined(separator: ", "))</td><td>\(node.version)</td></tr>
            """
        }
        return """
            <section><h2>Nodes</h2>
            <table class="nodes"><thead><tr><th>Node</th><th>State</th><th>Heartbeat</th><th>Modems</th><th>Version</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            </section>
            """
    }

    /// The daemon's automatic backups, as `smsgw status` prints them: the newest and its file,
    /// the next due time, and the latest attempt's error while it failed; without the paths
    /// (a viewer's, ``Operations/GatewayStatus/withoutPaths()``) their state and times.
    static func backups(_ backup: GatewayStatus.BackupStatus) -> HTML {
        let newest: HTML = backup.lastSuccessAt.map { "\(ConsolePage.time($0)) \(backup.lastFile ?? "")" } ?? "none written yet"
        let state =
            backup.consecutiveFailures > 0
            ? "failing (\(backup.consecutiveFailures) attempt\(backup.consecutiveFailures == 1 ? "" : "s"))"
            : backup.overdue ? "overdue" : "working"
        return """
            <section><h2>Backups</h2>
            <dl class="facts">
            \(HTML.when(!backup.directory.isEmpty, "<dt>Directory</dt><dd>\(backup.directory)</dd>"))
            <dt>State</dt><dd>\(state)</dd>
            <dt>Newest</dt><dd>\(newest)</dd>
            <dt>Next</dt><dd>\(ConsolePage.time(backup.nextDueAt))</dd>
            \(HTML.when(backup.lastError != nil, "<dt>Last error</dt><dd>\(backup.lastError ?? "")</dd>"))
            </dl>
            </section>
            """
    }

    static func queue(_ entries: [GatewayStatus.OutboxEntry], viewer: ConsoleViewer, retries: [Int64: RetryOutlook]) -> HTML {
        let rows = entries.map { entry -> HTML in
            let what: HTML = entry.id.map { "<a href=\"/log/\($0)\">message \($0)</a>" } ?? "\(entry.kind.rawValue)"
            let outlook = entry.id.flatMap { retries[$0] } ?? .mayHelp
            let button = HTML.when(
                !outlook.isRefused, ConsolePage.button("Retry", action: "/outbox/\(entry.id ?? 0)/retry", viewer: viewer))
            let note = outlook.sentence.map { sentence -> HTML in "<p class=\"retry-note\">\(sentence)</p>" } ?? .empty
            let retry = HTML.when(entry.state == .failed && entry.id != nil && viewer.may(.operator), "\(button)\(note)")
            return """
                <tr class="\(entry.state.rawValue)"><td>\(what)</td><td>\(entry.contact)</td><td>\(entry.state.rawValue)</td>\
                <td>\(entry.attempts)\(entry.temporaryFailures > 0 ? ", \(entry.temporaryFailures) failed temporarily" : "")</td><td>\(entry.lastError, or: "")</td><td>\(ConsolePage.time(entry.updatedAt))</td><td>\(retry)</td></tr>
                """
        }
        return """
            <table class="queue"><thead><tr><th>Message</th><th>Contact</th><th>State</th><th>Attempts</th><th>Last error</th><th>Since</th><th></th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
