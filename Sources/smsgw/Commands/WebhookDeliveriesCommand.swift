import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw webhook deliveries`: the newest deliveries, or only the failed ones.
struct WebhookDeliveriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "Show the newest webhook deliveries (id, event, type, state, attempts, last answer).")

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Flag(help: "Only deliveries that failed for good.")
    var failed = false

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(parsing: .unconditional, help: "At most this many of the newest deliveries.")
    var limit: Int = 100

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let deliveries = try Webhooks.deliveries(failed: failed, limit: limit, store: try StoreAccess.unlock(global))
        for delivery in deliveries.reversed() {
            if json {
                Output.line(try Output.json(delivery))
            } else {
                let answer = delivery.lastStatus.map { "HTTP \($0)" } ?? "-"
                Output.line(
                    [
                        "\(delivery.id)", delivery.webhookID, delivery.type, delivery.state.rawValue, "attempts \(delivery.attempts)",
                        answer, delivery.endpoint, delivery.lastError ?? "",
                    ].joined(separator: "\t"))
            }
        }
    }
}
