import ConsoleViews
public import Foundation
public import Operations
public import Store

/// The web console's behaviour, independent of the HTTP server that carries it: sign-in with
/// the per-address throttle and the per-operator lockout, sessions in cookies, the
/// cross-origin and CSRF checks of every POST, roles enforced on the server (a refusal is a 403
/// and an audit line), and the pages rendered by ``ConsoleViews``. Every rule it applies lives
/// in ``Operations``; this type maps requests to operations and values to responses.
public struct ConsoleController: Sendable {
    /// What the controller needs from the daemon it runs in.
    public struct Environment: Sendable {
        public var store: UnlockedStore
        /// The status as the daemon sees it now (modems, queue, contacts).
        public var status: @Sendable (Date) throws -> GatewayStatus
        /// The status with at least what the banners say (`StatusPage.banners`), which the log
        /// and status pages ask for every few seconds: a read much smaller than ``status``'s
        /// where the daemon offers one, else ``status``.
        public var banners: @Sendable (Date) throws -> GatewayStatus
        /// Wakes the outbox sender after a send, a retry or a resync.
        public var wake: @Sendable () -> Void
        /// Whether the listener serves TLS: cookies are then `Secure`.
        public var secure: Bool
        public var version: String
        public var clock: @Sendable () -> Date
        /// The configured webhook endpoints: the admin page shows their events and backlogs.
        public var webhooks: [WebhookEndpoint]

        public init(
            store: UnlockedStore, status: @escaping @Sendable (Date) throws -> GatewayStatus,
            banners: (@Sendable (Date) throws -> GatewayStatus)? = nil, wake: @escaping @Sendable () -> Void = {}, secure: Bool,
            version: String, clock: @escaping @Sendable () -> Date = { Date() }, webhooks: [WebhookEndpoint] = []
        ) {
            self.webhooks = webhooks
            self.store = store
            self.status = status
            self.banners = banners ?? status
            self.wake = wake
            self.secure = secure
            self.version = version
            self.clock = clock
        }
    }

    /// The session cookie's name.
    public static let sessionCookie = "smsgw_session"
    /// The sign-in form's own token cookie (double submit: there is no session yet).
    public static let loginCookie = "smsgw_login"

    let environment: Environment
    let throttle: AddressThrottle
    /// The log's searches for words, counted per operator.
    let searches: SearchThrottle
    let policy: ConsoleSessionPolicy

    public init(
        _ environment: Environment, throttle: AddressThrottle = AddressThrottle(), searches: SearchThrottle = SearchThrottle(),
        policy: ConsoleSessionPolicy = .standard
    ) {
        self.environment = environment
        self.throttle = throttle
        self.searches = searches
        self.policy = policy
    }

    var store: UnlockedStore { environment.store }

    /// Answers one request. Never throws: every failure becomes a page with a sentence.
    public func respond(to request: ConsoleRequest) -> ConsoleResponse {
        if request.method == "GET", let asset = ConsoleAssets.asset(at: request.path) {
            return ConsoleResponse(
                status: 200, headers: [("Content-Type", asset.contentType), ("Cache-Control", "no-cache")] + Self.securityHeaders,
                body: asset.body)
        }
        let now = environment.clock()
        switch (request.method, request.path) {
        case ("GET", "/login"): return loginForm(problem: nil, name: "", reusing: request.cookies[Self.loginCookie])
        case ("POST", "/login"): return signIn(request, now: now)
        case ("GET", ConsolePage.bannersPath): return liveBanners(request, now: now)
        default: break
        }
        guard let token = request.cookies[Self.sessionCookie],
            let session = try? ConsoleSessions.resume(token, in: store, now: now, policy: policy)
        else {
            return request.method == "GET"
                ? Self.redirect("/login") : page(status: 401, title: "Signed out", text: OperatorError.notSignedIn.description)
        }
        let viewer = ConsoleViewer(name: session.operatorName, role: session.role, csrfToken: session.csrfToken)
        if request.method == "POST" {
            if let refusal = checkOrigin(request) ?? checkCSRF(request, token: token) {
                audit(request, viewer: viewer, outcome: .refused, now: now)
                return refusal
            }
            if request.path == "/logout" { return signOut(token: token, request: request, now: now) }
        }
        guard let route = ConsoleRoute(request) else {
            return page(
                status: request.method == "GET" ? 404 : 405, title: "Not found", text: "There is no such page; go back to the log.",
                viewer: viewer)
        }
        guard viewer.may(route.role) else {
            // A refused change is audited; a page the role cannot open only answers 403.
            if request.method == "POST" { audit(request, viewer: viewer, outcome: .refused, now: now) }
            return page(
                status: 403, title: "Not allowed", text: "Your role (\(viewer.role)) may not do this; ask an admin.", viewer: viewer)
        }
        do {
            return try handle(route, request: request, viewer: viewer, now: now)
        } catch {
            return failure(error, viewer: viewer)
        }
    }

    /// Every response's headers: a policy allowing only the console's own script and
    /// stylesheet, no framing, no sniffing, no referrer to other sites. `same-origin`, not
    /// `no-referrer`: under `no-referrer` a browser sends `Origin: null` with the console's own
    /// forms, which the origin check must refuse.
    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; "
                + "frame-ancestors 'none'; base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]

    /// A 303 to `location`.
    static func redirect(_ location: String, cookies: [String] = []) -> ConsoleResponse {
        ConsoleResponse(
            status: 303,
            headers: [("Location", location), ("Cache-Control", "no-store")] + cookies.map { ("Set-Cookie", $0) } + securityHeaders)
    }

    /// A rendered page.
    static func html(_ html: HTML, status: Int = 200, cookies: [String] = []) -> ConsoleResponse {
        ConsoleResponse(
            status: status,
            headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")] + cookies.map { ("Set-Cookie", $0) }
                + securityHeaders,
            body: html.markup)
    }

    /// A page with one sentence (an error, a refusal).
    func page(status: Int, title: String, text: String, viewer: ConsoleViewer? = nil) -> ConsoleResponse {
        Self.html(
            ConsolePage.document(
                title: title, viewer: viewer, section: nil, banners: [Banner(.problem, text)],
                body: "<p><a href=\"/\">Back to the log</a></p>"),
            status: status)
    }

    /// A cookie with the attributes every console cookie has.
    func cookie(_ name: String, _ value: String, maxAge: Int? = nil) -> String {
        var parts = ["\(name)=\(value)", "Path=/", "HttpOnly", "SameSite=Strict"]
        if environment.secure { parts.append("Secure") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        return parts.joined(separator: "; ")
    }
}
