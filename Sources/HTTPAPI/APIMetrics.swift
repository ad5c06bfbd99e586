import Foundation
import Gateway
import Operations
import Prometheus
import Store

/// The Prometheus page (`GET /metrics`): gauges read from the store and the live status at each
/// scrape, so they can never drift from what `smsgw status` says, and the histograms the API
/// records as it works.
final class APIMetrics: Sendable {
    /// What lives across scrapes: the histograms.
    private let registry = PrometheusCollectorRegistry()
    private let queueLatency: DurationHistogram

    init() {
        queueLatency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "smsgw", metricName: "api_queue", unitName: "seconds",
                helpText: "Time from a POST /v1/messages arriving to its message committed to the outbox."),
            buckets: [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            ])
    }

    /// Records how long queueing one message through the API took.
    func recordQueued(after duration: Duration) {
        queueLatency.record(duration)
    }

    /// What the page reads from the store at a scrape, besides the status.
    struct StoreFigures: Sendable {
        var messages: [(direction: MessageDirection, status: MessageStatus, count: Int)]
        var submitDelays: (atMost: [Int], count: Int, sum: Double)
        var decryptFailures: [DecryptFailureReason: Int]
        var webhookDeliveries: [WebhookOutcome: Int]
        /// Each configured endpoint's backlog (``Operations/WebhookStatus/waiting``).
        var webhookWaiting: [(endpoint: String, count: Int)]
    }

    /// The bounds, in seconds, of the histogram from queued to submitted.
    static let submitBounds: [Double] = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600]

    /// Reads the figures of one scrape from one snapshot; `webhooks` are the configured endpoints.
    static func figures(from reader: StoreReader, webhooks: [WebhookEndpoint]) throws -> StoreFigures {
        StoreFigures(
            messages: try reader.messageCounts(), submitDelays: try reader.submitDelays(bounds: submitBounds),
            decryptFailures: try DecryptFailureReason.counts(in: reader), webhookDeliveries: try WebhookOutcome.counts(in: reader),
            webhookWaiting: try Webhooks.list(configured: webhooks, reader: reader).filter(\.configured).map { ($0.url, $0.waiting) })
    }

    /// The page: the gauges as of now, then the histograms.
    func page(status: GatewayStatus, figures: StoreFigures, arrivals: (atMost: [Int], count: Int, sum: Double)) -> String {
        var gauges = GaugePage()
        func set(_ name: String, _ labels: [(String, String)], _ help: String, _ value: Int) { gauges.set(name, labels, help, value) }
        for row in figures.messages {
            set(
                "messages", [("direction", row.direction.rawValue), ("state", row.status.rawValue)],
                "Messages in the log by direction and current state (rejected: decryption failures).", row.count)
        }
        for reason in DecryptFailureReason.allCases {
            set(
                "decrypt_failures", [("reason", reason.rawValue)], "Incoming messages in the log that did not open, by reason.",
                figures.decryptFailures[reason] ?? 0)
        }
        for outcome in WebhookOutcome.allCases {
            set(
                "webhook_deliveries", [("outcome", outcome.rawValue)],
                "Webhook deliveries the store keeps, by outcome (retrying: failed, will be tried again).",
                figures.webhookDeliveries[outcome] ?? 0)
        }
        for (endpoint, count) in figures.webhookWaiting {
            set(
                "webhook_waiting", [("endpoint", endpoint)],
                "Journal events an endpoint takes that wait for their delivery (behind a retrying one, or not picked up yet).", count)
        }
        set(
            "outbox_unconfirmed", [],
            "Text SMS sent over \(Int(GatewayStatus.Unconfirmed.threshold / 3600)) hours ago with neither a delivery report nor an acknowledgement, though one could come, not marked checked.",
            status.unconfirmed?.count ?? 0)
        if let usage = status.notificationQueueUsage.fraction {
            gauges.set(
                "postgres_notification_queue_usage_ratio", [],
                "Fraction of the PostgreSQL server's notification queue in use (pg_notification_queue_usage()); every write fails once it is full.",
                usage)
        }
        if let backup = status.backup.status {
            set(
                "backup_last_success_timestamp_seconds", [],
                "When the newest automatic backup was written, in seconds since 1970 (0: none yet).",
                Int(backup.lastSuccessAt?.timeIntervalSince1970 ?? 0))
            set(
                "backup_consecutive_failures", [], "Automatic backups that failed since the last that worked (0 while they work).",
                backup.consecutiveFailures)
        }
        for state in OutboxState.allCases { set("outbox", [("state", state.rawValue)], "Outbox SMS by state.", status.outbox[state] ?? 0) }
        for modem in status.modems {
            let name = ("modem", modem.name)
            set("modem_up", [name], "1 when the modem is ready.", modem.state == .ready ? 1 : 0)
            for phase in ModemPhase.allCases {
                set("modem_phase", [name, ("phase", phase.rawValue)], "1 for the modem's current phase.", modem.state == phase ? 1 : 0)
            }
            if let signal = modem.signalPercent { set("modem_signal_percent", [name], "Signal strength, 0-100.", signal) }
            set("modem_sent", [name], "SMS the modem sent since the daemon started.", modem.sentCount)
            set("modem_received", [name], "SMS the modem received since the daemon started.", modem.receivedCount)
        }
        var syncStates: [String: Int] = [:]
        for contact in status.contacts { syncStates[contact.sync.state.rawValue, default: 0] += 1 }
        for state in GatewayStatus.SyncState.State.allCases {
            set("contacts", [("sync_state", state.rawValue)], "Contacts by sync state.", syncStates[state.rawValue] ?? 0)
        }
        let resyncHelp =
            "Resyncs: completed (in the log), and contacts whose resync the peer requested, that wait for an answer, or whose handshake went unanswered."
        set("resyncs", [("state", "completed")], resyncHelp, figures.messages.filter { $0.status == .resynced }.reduce(0) { $0 + $1.count })
        for (label, state) in [
            ("requested", GatewayStatus.SyncState.State.resyncRequested), ("pending", .resyncPending), ("unanswered", .resyncUnanswered),
        ] {
            set("resyncs", [("state", label)], resyncHelp, syncStates[state.rawValue] ?? 0)
        }
        return gauges.text
            + Self.histogram(
                "send_submit", help: "Time from a text queued to its SMS submitted, over the outbox the store keeps.",
                bounds: Self.submitBounds, figures.submitDelays)
            + Self.histogram(
                "arrival_log", help: "Time from a received SMS in the daemon's hands to its log row committed, since the daemon started.",
                bounds: ArrivalLatency.bounds, arrivals)
            + registry.emitToString()
    }

    /// A histogram in the text format from its cumulative buckets: `smsgw_send_submit_seconds`
    /// from the outbox rows the store keeps (rows pruned with the log leave it, which Prometheus
    /// reads as a counter reset), `smsgw_arrival_log_seconds` from the daemon's memory.
    static func histogram(_ name: String, help: String, bounds: [Double], _ figures: (atMost: [Int], count: Int, sum: Double)) -> String {
        let metric = "smsgw_\(name)_seconds"
        var lines = ["# HELP \(metric) \(help)", "# TYPE \(metric) histogram"]
        for (bound, count) in zip(bounds, figures.atMost) { lines.append("\(metric)_bucket{le=\"\(bound)\"} \(count)") }
        lines.append("\(metric)_bucket{le=\"+Inf\"} \(figures.count)")
        lines.append("\(metric)_sum \(figures.sum)")
        lines.append("\(metric)_count \(figures.count)")
        return lines.joined(separator: "\n") + "\n"
    }
}
