import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw webhook redeliver ID`: the delivery is sent again (same webhook-id) by the daemon.
struct WebhookRedeliverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redeliver",
        abstract: "Send a webhook delivery again (and enable its endpoint if a 410 disabled it).",
        discussion: "The running daemon sends it within seconds, with the same webhook-id, before the endpoint's later events.")

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: "The delivery's id (from `smsgw webhook deliveries`).")
    var id: Int64

    func run() throws {
        let delivery = try Webhooks.redeliver(id, store: try StoreAccess.unlock(global), now: Date())
        Output.line("Delivery \(delivery.id) (\(delivery.webhookID), \(delivery.type)) to \(delivery.endpoint) is due again.")
    }
}
