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
            name: "smsgw_api_queue_seconds",
            buckets: [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            ],
            help: "Time from a POST /v1/messages arriving to its message committed to the outbox.")
    }

    /// Records how long queueing one message through the API took.
    func recordQueued(after duration: Duration) {
        queueLatency.record(duration)
    }

    /// The page: the gauges as of now, then the histograms.
    func page(status: GatewayStatus, messages: [(direction: MessageDirection, status: MessageStatus, count: Int)]) -> String {
        let gauges = PrometheusCollectorRegistry()
        for row in messages {
            gauges.makeGauge(
                name: "smsgw_messages", labels: [("direction", row.direction.rawValue), ("state", row.status.rawValue)],
                help: "Messages in the log by direction and current state (rejected: decryption failures)."
            ).set(Double(row.count))
        }
        for (state, count) in status.outbox {
            gauges.makeGauge(name: "smsgw_outbox", labels: [("state", state.rawValue)], help: "Outbox SMS by state.").set(Double(count))
        }
        for modem in status.modems {
            let name = ("modem", modem.name)
            gauges.makeGauge(name: "smsgw_modem_up", labels: [name], help: "1 when the modem is ready.")
                .set(Double(modem.state == .ready ? 1 : 0))
            for phase in ModemPhase.allCases {
                gauges.makeGauge(
                    name: "smsgw_modem_phase", labels: [name, ("phase", phase.rawValue)], help: "1 for the modem's current phase."
                ).set(Double(modem.state == phase ? 1 : 0))
            }
            if let signal = modem.signalPercent {
                gauges.makeGauge(name: "smsgw_modem_signal_percent", labels: [name], help: "Signal strength, 0-100.")
                    .set(Double(signal))
            }
            gauges.makeGauge(name: "smsgw_modem_sent", labels: [name], help: "SMS the modem sent since it connected.")
                .set(Double(modem.sentCount))
            gauges.makeGauge(name: "smsgw_modem_received", labels: [name], help: "SMS the modem received since it connected.")
                .set(Double(modem.receivedCount))
        }
        var syncStates: [String: Int] = [:]
        for contact in status.contacts { syncStates[contact.sync.state.rawValue, default: 0] += 1 }
        for (state, count) in syncStates {
            gauges.makeGauge(name: "smsgw_contacts", labels: [("sync_state", state)], help: "Contacts by sync state.").set(Double(count))
        }
        return gauges.emitToString() + registry.emitToString()
    }
}
