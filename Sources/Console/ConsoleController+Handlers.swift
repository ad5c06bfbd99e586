import ConsoleViews
import Failures
import Foundation
import Operations
import Store

extension ConsoleController {
    /// The newest messages the log page shows.
    static let logLimit = 200

    func handle(_ route: ConsoleRoute, request: ConsoleRequest, viewer: ConsoleViewer, now: Date) throws -> ConsoleResponse {
        switch route {
        case .log:
            let filter = LogFilter(
                contact: request.query["contact"].flatMap { $0.isEmpty ? nil : $0 },
                direction: request.query["direction"].flatMap(MessageDirection.init(rawValue:)),
                status: request.query["status"].flatMap { $0.isEmpty ? nil : MessageStatus(rawValue: $0) },
                search: request.query["q"])
            let contacts = try Contacts.list(store: store).map(\.name)
            let listing: MessageLog.Listing?
            do {
                listing = try MessageLog.recent(
                    contact: filter.contact, direction: filter.direction, status: filter.status, matching: filter.search,
                    limit: Self.logLimit,
                    // Per operator, not per session: signing in again gives no more searches.
                    searchedBy: SearchThrottle.Searcher(searches, reader: viewer.name, now: now), store: store)
            } catch StoreError.notFound {
                listing = nil  // a contact removed since the filter was set: nothing of it is left to show
            }
            let banners = (try? environment.banners(now)).map { StatusPage.banners($0.shown(seeingPaths: viewer.role.seesPaths)) } ?? []
            return Self.html(
                LogPage.render(
                    listing?.messages.reversed().map { $0.shown(seeingPaths: viewer.role.seesPaths) } ?? [], filter: filter,
                    contacts: contacts, viewer: viewer, banners: banners,
                    searchedAll: listing?.searchedAll ?? true))
        case .message(let id):
            let detail = try MessageDetail.read(id: id, store: store).shown(seeingPaths: viewer.role.seesPaths)
            let waiting = (try? environment.status(now))?.queue.first { $0.id == id && ($0.state == .queued || $0.state == .submitting) }
            return Self.html(MessagePage.render(detail, outbox: waiting?.state, viewer: viewer))
        case .status:
            let status = try environment.status(now).shown(seeingPaths: viewer.role.seesPaths)
            let failed = status.queue.compactMap { $0.state == .failed ? $0.id : nil }
            let retries = failed.isEmpty ? [:] : (try? RetryOutlook.of(failed, store: store)) ?? [:]
            return Self.html(StatusPage.render(status, viewer: viewer, now: now, version: environment.version, retries: retries))
        case .contacts:
            return Self.html(ContactsPage.render(try Contacts.list(store: store), viewer: viewer))
        case .sendForm:
            return Self.html(SendPage.render(contacts: try Contacts.list(store: store), viewer: viewer, chosen: request.query["contact"]))
        case .admin:
            return Self.html(adminPage(viewer: viewer, now: now))
        case .send:
            return try send(request, viewer: viewer, now: now)
        case .retry(let id):
            try Messages.retry(id, by: .operator(viewer.name), address: request.address, store: store, now: now)
            environment.wake()
            return Self.redirect("/status")
        case .checkUnconfirmed:
            try GatewayStatus.Unconfirmed.markChecked(.all, by: .operator(viewer.name), address: request.address, store: store, now: now)
            return Self.redirect("/status")
        case .checkMessage(let id):
            try GatewayStatus.Unconfirmed.markChecked(
                .message(id), by: .operator(viewer.name), address: request.address, store: store, now: now)
            return Self.redirect(MessagePage.path(id))
        case .resync(let name), .acceptResync(let name), .rejectResync(let name):
            try resync(route, contact: name, request: request, viewer: viewer, now: now)
            environment.wake()
            return Self.redirect("/contacts")
        case .addOperator, .setRole, .removeOperator, .createToken, .revokeToken, .redeliver:
            return try administer(route, request: request, viewer: viewer, now: now)
        }
    }

    /// Queues the form's text; a text that cannot be sent (not GSM-7, too long, a contact not
    /// paired, without a number or gone, a busy store) comes back in the form with the reason,
    /// so nothing typed is lost.
    func send(_ request: ConsoleRequest, viewer: ConsoleViewer, now: Date) throws -> ConsoleResponse {
        let contact = request.form["contact"] ?? ""
        let text = request.form["text"] ?? ""
        var rng = SystemRandomNumberGenerator()
        do {
            let queued = try Messages.queue(
                text, to: contact, by: .operator(viewer.name), address: request.address, store: store, now: now, using: &rng)
            environment.wake()
            return Self.redirect("/log/\(queued.logID)")
        } catch let error as any CategorizedError where Self.formKeeping.contains(error.category) {
            let page = SendPage.render(
                contacts: try Contacts.list(store: store), viewer: viewer, chosen: contact, text: text,
                banners: [Banner(.problem, error.description)])
            return Self.html(page, status: error.httpStatus)
        }
    }

    /// The refusals of a send that the form shows above the text it keeps.
    static let formKeeping: Set<ErrorCategory> = [.invalidInput, .conflict, .unavailable, .notFound, .busy]

    func resync(_ route: ConsoleRoute, contact: String, request: ConsoleRequest, viewer: ConsoleViewer, now: Date) throws {
        var rng = SystemRandomNumberGenerator()
        let (actor, address) = (AuditActor.operator(viewer.name), request.address)
        switch route {
        case .acceptResync: _ = try Resync.accept(from: contact, by: actor, address: address, store: store, now: now, using: &rng)
        case .rejectResync: _ = try Resync.reject(from: contact, by: actor, address: address, store: store, now: now)
        default: _ = try Resync.start(with: contact, by: actor, address: address, store: store, now: now, using: &rng)
        }
    }

    /// A refused request in the audit list: the action it asked for, `refused`.
    func audit(_ request: ConsoleRequest, viewer: ConsoleViewer, outcome: AuditOutcome, now: Date) {
        let action: AuditAction =
            switch ConsoleRoute(request) {
            case .send?: .send
            case .retry?: .retry
            case .checkUnconfirmed?, .checkMessage?: .unconfirmedChecked
            case .resync?, .acceptResync?, .rejectResync?: .resync
            case .addOperator?: .operatorAdded
            case .setRole?: .operatorRoleChanged
            case .removeOperator?: .operatorRemoved
            case .createToken?: .tokenCreated
            case .revokeToken?: .tokenRevoked
            case .redeliver?: .webhookRedelivered
            default: request.path == "/logout" ? .logout : .login
            }
        try? Audit.record(
            action, by: .operator(viewer.name), target: request.path, outcome: outcome, address: request.address, in: store, now: now)
    }

    /// An error as a page with its sentence and the status its category maps to.
    func failure(_ error: any Error, viewer: ConsoleViewer) -> ConsoleResponse {
        let status = (error as? any CategorizedError)?.httpStatus ?? ErrorCategory.storage.httpStatus
        var response = page(status: status, title: "Not done", text: Self.sentence(error), viewer: viewer)
        if case MessageError.tooManySearches(let until) = error {
            response.headers.append(Self.retryAfter(until, now: environment.clock()))
        }
        return response
    }

    static func sentence(_ error: any Error) -> String {
        (error as? any CategorizedError)?.description ?? "An unexpected error occurred; see the daemon's log."
    }

    /// The `Retry-After` header of a refusal that lasts until `until`: whole seconds, at least one.
    static func retryAfter(_ until: Date, now: Date) -> (String, String) {
        ("Retry-After", "\(max(1, Int(until.timeIntervalSince(now).rounded(.up))))")
    }
}
