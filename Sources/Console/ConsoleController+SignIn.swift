import ConsoleViews
import Foundation
import Operations
import Store

extension ConsoleController {
    /// The sign-in form, with a token in its field and its cookie: the browser's own when it
    /// has one, else a fresh one. Reused because a browser's background requests (its favicon)
    /// are redirected here too, and a fresh cookie from one of them would expire the form the
    /// person is filling in.
    func loginForm(problem: String?, name: String, status: Int = 200, reusing current: String? = nil) -> ConsoleResponse {
        var rng = SystemRandomNumberGenerator()
        let token = current.flatMap(Self.wellFormedToken) ?? ConsoleSessions.randomToken(using: &rng)
        return Self.html(
            LoginPage.render(problem: problem, name: name, csrfToken: token), status: status, cookies: [cookie(Self.loginCookie, token)])
    }

    /// `token` when it has the shape of a token this console makes (43 base64url characters).
    static func wellFormedToken(_ token: String) -> String? {
        token.count == 43 && token.allSatisfy(base64URLAlphabet.contains) ? token : nil
    }

    static let base64URLAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// Sign-in: the form's token against its cookie, the origin, the per-address throttle, then
    /// the operator's name, password and code; a new session on success.
    func signIn(_ request: ConsoleRequest, now: Date) -> ConsoleResponse {
        let name = request.form["name"] ?? ""
        guard checkOrigin(request) == nil, let expected = request.cookies[Self.loginCookie],
            ConsoleSessions.tokensMatch(request.form["csrf"] ?? "", expected)
        else {
            return loginForm(problem: "The sign-in form expired or came from another site; sign in again.", name: name, status: 403)
        }
        let address = request.address ?? "unknown"
        if let until = throttle.blockedUntil(address, now: now) {
            var response = loginForm(
                problem: "Too many failed sign-ins from your address; try again after \(until.formatted(.iso8601)).", name: name,
                status: 429)
            response.headers.append(Self.retryAfter(until, now: now))
            return response
        }
        do {
            let code = request.form["code"].flatMap { $0.isEmpty ? nil : $0 }
            let who = try Operators.authenticate(
                name, password: request.form["password"] ?? "", code: code, address: request.address, in: store, now: now)
            throttle.succeed(address)
            var rng = SystemRandomNumberGenerator()
            let (token, _) = try ConsoleSessions.start(for: who, address: request.address, in: store, now: now, using: &rng)
            return Self.redirect("/", cookies: [cookie(Self.sessionCookie, token), cookie(Self.loginCookie, "", maxAge: 0)])
        } catch let error as OperatorError {
            if error.countsTowardLockout { throttle.fail(address, now: now) }
            return loginForm(problem: error.description, name: name, status: error.httpStatus)
        } catch {
            return loginForm(problem: "Signing in failed: \(Self.sentence(error))", name: name, status: 500)
        }
    }

    /// Sign-out: the session ends in the store, the cookie is cleared.
    func signOut(token: String, request: ConsoleRequest, now: Date) -> ConsoleResponse {
        try? ConsoleSessions.end(token, address: request.address, in: store, now: now)
        return Self.redirect("/login", cookies: [cookie(Self.sessionCookie, "", maxAge: 0)])
    }

    /// Refuses a POST that a browser says came from another site (`Sec-Fetch-Site`), or whose
    /// `Origin` is not this host.
    func checkOrigin(_ request: ConsoleRequest) -> ConsoleResponse? {
        if let site = request.fetchSite, site != "same-origin", site != "none" {
            return page(status: 403, title: "Refused", text: "The request came from another site; use the console's own pages.")
        }
        if let origin = request.origin, let host = request.host {
            let own = ["http://\(host)", "https://\(host)"]
            if !own.contains(origin.lowercased()) {
                return page(status: 403, title: "Refused", text: "The request came from another site; use the console's own pages.")
            }
        }
        return nil
    }

    /// Refuses a POST whose CSRF field is not its session's.
    func checkCSRF(_ request: ConsoleRequest, token: String) -> ConsoleResponse? {
        if ConsoleSessions.checkCSRF(request.form["csrf"] ?? "", token: token) { return nil }
        return page(status: 403, title: "Refused", text: "The form expired or came from another site; reload the page and try again.")
    }
}
