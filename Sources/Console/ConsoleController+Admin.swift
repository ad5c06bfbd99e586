import ConsoleViews
import Failures
import Foundation
import Operations
import Store

extension ConsoleController {
    /// The newest webhook deliveries the admin page lists.
    static let deliveryLimit = 50

    /// An admin's change (operators, API tokens, a webhook redelivery) through the operation the
    /// command line uses, audited there; a change that cannot be made comes back on the admin
    /// page with the reason. A new token is shown on the page that answers, and never again.
    func administer(_ route: ConsoleRoute, request: ConsoleRequest, viewer: ConsoleViewer, now: Date) throws -> ConsoleResponse {
        let actor = AuditActor.operator(viewer.name)
        let role = OperatorRole(rawValue: request.form["role"] ?? "")
        do {
            switch route {
            case .addOperator:
                guard let role else { throw OperatorError.noRole }
                try Operators.add(
                    request.form["name"] ?? "", role: role, password: request.form["password"] ?? "", by: actor, in: store, now: now)
            case .setRole(let name):
                guard let role else { return Self.redirect("/admin") }
                try Operators.setRole(name, to: role, by: actor, in: store, now: now)
            case .removeOperator(let name):
                try Operators.remove(name, by: actor, in: store, now: now)
            case .createToken:
                let created = try createToken(request, by: actor, now: now)
                return Self.html(adminPage(viewer: viewer, now: now, createdToken: created))
            case .revokeToken(let name):
                try APITokens.revoke(name, by: actor, address: request.address, store: store, now: now)
            case .redeliver(let id):
                _ = try Webhooks.redeliver(id, by: actor, address: request.address, store: store, now: now)
            default:
                break
            }
        } catch let error as any CategorizedError where error.category != .storage && error.category != .corrupted {
            return Self.html(
                adminPage(viewer: viewer, now: now, banners: [Banner(.problem, error.description)]),
                status: error.httpStatus)
        }
        return Self.redirect("/admin")
    }

    /// A token from the form: its name, the scopes ticked (`scope-read`, …) and an optional
    /// lifetime such as `90d`.
    func createToken(_ request: ConsoleRequest, by actor: AuditActor, now: Date) throws -> CreatedAPIToken {
        let scopes = Set(APIScope.allCases.filter { request.form["scope-\($0.rawValue)"] != nil })
        let expires = (request.form["expires"] ?? "").trimmingCharacters(in: .whitespaces)
        let lifetime = expires.isEmpty || expires.lowercased() == "never" ? nil : try APITokens.lifetime(parsing: expires)
        var rng = SystemRandomNumberGenerator()
        return try APITokens.create(
            name: request.form["name"] ?? "", scopes: scopes, lifetime: lifetime, by: actor, address: request.address, store: store,
            now: now, using: &rng)
    }

    func adminPage(viewer: ConsoleViewer, now: Date, banners: [Banner] = [], createdToken: CreatedAPIToken? = nil) -> HTML {
        let operators = (try? Operators.list(in: store, now: now)) ?? []
        let audit = (try? Audit.list(limit: 100, in: store)) ?? []
        let integrations = AdminIntegrations(
            tokens: (try? APITokens.list(store: store)) ?? [],
            // The daemon registers every configured endpoint in the store before it serves, so
            // the store's list is the configuration's (and those removed from it since).
            webhooks: (try? Webhooks.list(configured: environment.webhooks, store: store)) ?? [],
            deliveries: (try? Webhooks.deliveries(limit: Self.deliveryLimit, store: store)) ?? [], createdToken: createdToken)
        return AdminPage.render(operators: operators, audit: audit, integrations: integrations, viewer: viewer, banners: banners)
    }
}
