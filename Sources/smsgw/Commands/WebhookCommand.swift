import ArgumentParser

/// `smsgw webhook`: the `[[webhook]]` endpoints and their deliveries.
struct WebhookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook",
        abstract: "List webhook endpoints and deliveries; send a delivery again.",
        discussion: """
            The daemon delivers events (message.received, message.sent, …) to each [[webhook]] of its \
            configuration, signed as Standard Webhooks say, and retries for 24 hours. See docs/OPERATIONS.md.
            """,
        subcommands: [WebhookListCommand.self, WebhookDeliveriesCommand.self, WebhookRedeliverCommand.self]
    )
}
