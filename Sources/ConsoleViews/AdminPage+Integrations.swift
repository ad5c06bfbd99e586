public import Operations
import Store

/// What the admin page shows of the gateway's integrations: the HTTP API's tokens and the
/// webhooks with their recent deliveries.
public struct AdminIntegrations: Sendable {
    public var tokens: [APIToken]
    public var webhooks: [WebhookStatus]
    /// The newest deliveries, newest first.
    public var deliveries: [WebhookDelivery]
    /// A token just made: shown on this one page, never again.
    public var createdToken: CreatedAPIToken?

    public init(
        tokens: [APIToken] = [], webhooks: [WebhookStatus] = [], deliveries: [WebhookDelivery] = [], createdToken: CreatedAPIToken? = nil
    ) {
        self.tokens = tokens
        self.webhooks = webhooks
        self.deliveries = deliveries
        self.createdToken = createdToken
    }
}

extension AdminPage {
    /// API tokens: a new one shown once, the list with a revoke each, and the form to make one.
    static func tokens(_ integrations: AdminIntegrations, viewer: ConsoleViewer) -> HTML {
        let created: HTML =
            integrations.createdToken.map { created in
                """
                <p class="banner notice" role="status">The token \(created.summary.name): <code class="secret">\(created.token)</code><br>\
                Copy it now: it is shown only this once (only a hash of it is kept).</p>
                """
            } ?? .empty
        let rows = integrations.tokens.map { token -> HTML in
            """
            <tr><td>\(token.name)</td><td>\(token.scopes.sorted().map(\.rawValue).joined(separator: ", "))</td>\
            <td>\(ConsolePage.time(token.createdAt))</td><td>\(token.expiresAt.map { ConsolePage.time($0) } ?? "never")</td>\
            <td>\(ConsolePage.time(token.lastUsedAt))</td>\
            <td>\(ConsolePage.button("Revoke", action: "/admin/tokens/\(segment: token.name)/revoke", viewer: viewer))</td></tr>

            """
        }
        let scopes = APIScope.allCases.map { scope -> HTML in
            "<label class=\"check\"><input type=\"checkbox\" name=\"scope-\(scope.rawValue)\"> \(scope.rawValue)</label>"
        }
        return """
            <section><h2>API tokens</h2>
            \(created)
            \(HTML.when(integrations.tokens.isEmpty, "<p class=\"none\">No API tokens.</p>"))
            \(HTML.when(!integrations.tokens.isEmpty, """
            <table class="tokens"><thead><tr><th>Name</th><th>Scopes</th><th>Created</th><th>Expires</th><th>Last used</th><th></th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """))
            <form class="add" method="post" action="/admin/tokens">\(ConsolePage.csrfField(viewer))
            <label>Name <input name="name" required maxlength="64"></label>
            <fieldset><legend>Scopes</legend>\(scopes)</fieldset>
            <label>Expires after <input name="expires" placeholder="never, or 90d, 12h"></label>
            <button>Create token</button></form>
            </section>
            """
    }

    /// Webhooks: each endpoint's state and counts, then the recent deliveries with a redeliver each.
    static func webhooks(_ integrations: AdminIntegrations, viewer: ConsoleViewer) -> HTML {
        let endpoints = integrations.webhooks.map { hook -> HTML in
            """
            <tr class="\(hook.state)"><td class="url">\(hook.url)</td><td>\(hook.state)\(hook.disabledReason.map { ": \($0)" }, or: "")</td>\
            <td>\(hook.pending)</td><td class="waiting">\(hook.waiting)</td><td>\(hook.delivered)</td><td>\(hook.failed)</td><td>\(ConsolePage.time(hook.lastDeliveredAt))</td></tr>

            """
        }
        let deliveries = integrations.deliveries.map { delivery -> HTML in
            let answer = delivery.lastStatus.map { "HTTP \($0)" } ?? delivery.lastError ?? ""
            return """
                <tr class="\(delivery.state.rawValue)"><td>\(delivery.id)</td><td class="url">\(delivery.endpoint)</td><td>\(delivery.type)</td>\
                <td>\(delivery.state.rawValue)</td><td>\(delivery.attempts)</td><td>\(answer)</td><td>\(ConsolePage.time(delivery.createdAt))</td>\
                <td>\(ConsolePage.button("Redeliver", action: "/admin/deliveries/\(delivery.id)/redeliver", viewer: viewer))</td></tr>

                """
        }
        return """
            <section><h2>Webhooks</h2>
            \(HTML.when(integrations.webhooks.isEmpty, "<p class=\"none\">No webhooks; they are set in the daemon's configuration.</p>"))
            \(HTML.when(!integrations.webhooks.isEmpty, """
            <table class="webhooks"><thead><tr><th>Endpoint</th><th>State</th><th>Pending</th><th>Waiting</th><th>Delivered</th><th>Failed</th><th>Last delivered</th></tr></thead>
            <tbody>\(endpoints)</tbody></table>
            """))
            \(HTML.when(!integrations.deliveries.isEmpty, """
            <h3>Recent deliveries</h3>
            <table class="deliveries"><thead><tr><th>Id</th><th>Endpoint</th><th>Event</th><th>State</th><th>Attempts</th><th>Last answer</th><th>Created</th><th></th></tr></thead>
            <tbody>\(deliveries)</tbody></table>
            """))
            </section>
            """
    }
}
