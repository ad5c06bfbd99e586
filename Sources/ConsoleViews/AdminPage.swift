public import Operations
import Store

/// The admin's page: operators with their roles, API tokens, webhooks and their deliveries, and
/// the audit list of who did what.
public enum AdminPage {
    public static func render(
        operators: [OperatorSummary], audit: [AuditEntry], integrations: AdminIntegrations = AdminIntegrations(), viewer: ConsoleViewer,
        banners: [Banner] = []
    ) -> HTML {
        let rows = operators.map { entry -> HTML in
            let roles = OperatorRole.allCases.map { role -> HTML in
                "<option\(HTML.when(role == entry.role, " selected"))>\(role.rawValue)</option>"
            }
            return """
                <tr><td>\(entry.name)</td>\
                <td><form class="inline" method="post" action="/admin/operators/\(segment: entry.name)/role">\(ConsolePage.csrfField(viewer))\
                <select name="role" aria-label="Role of \(entry.name)">\(roles)</select> <button>Change</button></form></td>\
                <td>\(entry.twoFactor ? "on" : "off")</td><td>\(ConsolePage.time(entry.lastLoginAt))</td>\
                <td>\(entry.lockedUntil.map { ConsolePage.time($0) } ?? "-")</td>\
                <td>\(ConsolePage.button("Remove", action: "/admin/operators/\(segment: entry.name)/remove", viewer: viewer))</td></tr>

                """
        }
        let lines = audit.map { entry -> HTML in
            """
            <tr class="\(entry.outcome)"><td>\(ConsolePage.time(entry.time))</td><td>\(entry.actor)\(entry.actorName.map { " \($0)" }, or: "")</td>\
            <td>\(entry.action)</td><td>\(entry.target, or: "")</td><td>\(entry.outcome)</td><td>\(entry.address, or: "")</td></tr>

            """
        }
        let roles = OperatorRole.allCases.map { role -> HTML in "<option>\(role.rawValue)</option>" }
        let body: HTML = """
            <section><h2>Operators</h2>
            <table class="operators"><thead><tr><th>Name</th><th>Role</th><th>2FA</th><th>Last login</th><th>Locked until</th><th></th></tr></thead>
            <tbody>\(rows)</tbody></table>
            <form class="add" method="post" action="/admin/operators">\(ConsolePage.csrfField(viewer))
            <label>Name <input name="name" required></label>
            <label>Role <select name="role">\(roles)</select></label>
            <label>Password <input name="password" type="password" autocomplete="new-password" minlength="\(Operators.minimumPasswordLength)" required></label>
            <button>Add operator</button></form>
            </section>
            \(tokens(integrations, viewer: viewer))
            \(webhooks(integrations, viewer: viewer))
            <section><h2>Audit</h2>
            <table class="audit"><thead><tr><th>Time</th><th>Who</th><th>Action</th><th>Target</th><th>Outcome</th><th>Address</th></tr></thead>
            <tbody>\(lines)</tbody></table>
            </section>
            """
        return ConsolePage.document(title: "Admin", viewer: viewer, section: .admin, banners: banners, body: body)
    }
}
