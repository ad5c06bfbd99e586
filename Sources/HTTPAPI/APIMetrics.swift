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
    }

    /// The bounds, in seconds, of the histogram from queued to submitted.
    static let submitBounds: [Double] = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600]

    /// Reads the figures of one scrape from one snapshot.
    static func figures(from reader: StoreReader) throws -> StoreFigures {
        StoreFigures(messages: try reader.messageCounts(), submitDelays: try reader.submitDelays(bounds: submitBounds))
    }

    /// The page: the gauges as of now, then the histograms.
    func page(status: GatewayStatus, figures: StoreFigures) -> String {
        let gauges = PrometheusCollectorRegistry()
        func set(_ name: String, _ labels: [(String, String)], _ help: String, _ value: Int) {
            gauges.makeGauge(
                descriptor: MetricNameDescriptor(namespace: "smsgw", metricName: name, unitName: "", helpText: help), labels: labels
            )
            .set(Double(value))
        }
        for row in figures.messages {
            set(
                "messages", [("direction", row.direction.rawValue), ("state", row.status.rawValue)],
                "Messages in the log by direction and current state (rejected: decryption failures).", row.count)
        }
        for (state, count) in status.outbox { set("outbox", [("state", state.rawValue)], "Outbox SMS by state.", count) }
        for modem in status.modems {
            let name = ("modem", modem.name)
            set("modem_up", [name], "1 when the modem is ready.", modem.state == .ready ? 1 : 0)
            for phase in ModemPhase.allCases {
                set("modem_phase", [name, ("phase", phase.rawValue)], "1 for the modem's current phase.", modem.state == phase ? 1 : 0)
            }
            if let signal = modem.signalPercent { set("modem_signal_percent", [name], "Signal strength, 0-100.", signal) }
            set("modem_sent", [name], "SMS the modem sent since it connected.", modem.sentCount)
            set("modem_received", [name], "SMS the modem received since it connected.", modem.receivedCount)
        }
        var syncStates: [String: Int] = [:]
        for contact in status.contacts { syncStates[contact.sync.state.rawValue, default: 0] += 1 }
        for (state, count) in syncStates { set("contacts", [("sync_state", state)], "Contacts by sync state.", count) }
        return gauges.emitToString() + Self.submitHistogram(figures.submitDelays) + registry.emitToString()
    }

    /// `smsgw_send_submit_seconds`, from the outbox rows the store keeps (rows pruned with the
    /// log leave it, which Prometheus reads as a counter reset).
    static func submitHistogram(_ delays: (atMost: [Int], count: Int, sum: Double)) -> String {
        var lines = [
            "# HELP smsgw_send_submit_seconds Time from a text queued to its SMS submitted, over the outbox the store keeps.",
            "# TYPE smsgw_send_submit_seconds histogram",
        ]
        for (bound, count) in zip(submitBounds, delays.atMost) {
            lines.append("smsgw_send_submit_seconds_bucket{le=\"\(bound)\"} \(count)")
        }
        lines.append("smsgw_send_submit_seconds_bucket{le=\"+Inf\"} \(delays.count)")
        lines.append("smsgw_send_submit_seconds_sum \(delays.sum)")
        lines.append("smsgw_send_submit_seconds_count \(delays.count)")
        return lines.joined(separator: "\n") + "\n"
    }
}
