import ArgumentParser
import Foundation
import Gateway
import Operations
import TerminalIO

/// `smsgw webhook list`: each endpoint, its events and its progress; never a secret.
struct WebhookListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the configured webhook endpoints with their state and delivery counts.",
        discussion: """
            While a daemon runs, the endpoints come from it over DATA_DIR/smsgw.serve.sock (its --config file \
            and its SMSGW_WEBHOOK_* environment), without the passphrase; otherwise from --config FILE (env \
            SMSGW_CONFIG) and this command's environment. Secrets are never shown.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions
    @OptionGroup var configFile: ConfigurationOption

    @Flag(help: "Print one JSON object per line.")
    var json = false

    func run() throws {
        let configuration = try configFile.gatewayConfiguration(global)
        var options = global
        options.dataDir = configuration.dataDirectory.path
        let statuses = try Webhooks.current(in: options.dataDirectory, configured: configuration.webhooks) {
            try StoreAccess.unlock(options)
        }
        if !json, let source = statuses.first?.source { Output.diagnostic(Self.describe(source)) }
        for status in statuses {
            if json {
                Output.line(try Output.json(status))
            } else {
                let events = status.configured ? status.events.joined(separator: ",") : "(no longer configured)"
                let last = status.lastDeliveredAt.map(Output.timestamp) ?? "-"
                Output.line(
                    [
                        status.url, status.state, events, status.includeText ? "text" : "no-text", "pending \(status.pending)",
                        "waiting \(status.waiting)", "delivered \(status.delivered)", "failed \(status.failed)", "last \(last)",
                    ].joined(separator: "\t"))
                if let reason = status.disabledReason { Output.line("\t\(reason)") }
            }
        }
        if statuses.isEmpty && !json {
            // A running daemon answered: its configuration is the one that counts, read when it started.
            Output.diagnostic(
                Daemon.state(in: options.dataDirectory).running
                    ? "The running daemon has no webhook configured; add a [[webhook]] table to its configuration (see docs/OPERATIONS.md) and restart it: it reads the file when it starts."
                    : "No webhook is configured; add a [[webhook]] table (see docs/OPERATIONS.md).")
        }
    }

    /// Which configuration "configured" was judged by.
    static func describe(_ source: WebhookStatus.Source) -> String {
        switch source {
        case .daemon: "Endpoints as the running daemon has them configured (its file and environment)."
        case .configuration: "No daemon runs: endpoints as this command's configuration has them (--config, SMSGW_WEBHOOK_*)."
        }
    }
}
