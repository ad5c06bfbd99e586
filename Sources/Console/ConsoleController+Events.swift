import ConsoleViews
import Foundation
public import Operations
public import Store

extension ConsoleController {
    /// The role of the request's live session (recording a use), or nil without one: whether
    /// it may open the live log, and whether it sees paths there (``Operations/OperatorRole/seesPaths``).
    public func signedInRole(_ request: ConsoleRequest) -> OperatorRole? {
        guard let token = request.cookies[Self.sessionCookie] else { return nil }
        return (try? ConsoleSessions.resume(token, in: store, now: environment.clock(), policy: policy))?.role
    }
}

extension ConsoleController {
    /// The role of the request's session while it is alive (nil once it ended), without
    /// recording a use: the live log asks before each event it sends, so it ends with the session
    /// (sign-out, timeout, a new password, the operator removed) and shows each event as the
    /// operator's role now sees it (a demoted operator's without paths).
    public func liveRole(_ request: ConsoleRequest) -> OperatorRole? {
        guard let token = request.cookies[Self.sessionCookie] else { return nil }
        return ConsoleSessions.liveRole(token, in: store, now: environment.clock(), policy: policy)
    }
}

extension ConsoleController {
    /// The banners the log and status pages keep current (``ConsoleViews/StatusPage/liveBanners(_:)``),
    /// as the session's role sees them (a viewer without paths), for a live session, without recording a use: the pages ask every few seconds, which must
    /// not keep an idle session alive. 401 once the session ended; 503 while the status cannot be
    /// read (the page keeps what it shows).
    func liveBanners(_ request: ConsoleRequest, now: Date) -> ConsoleResponse {
        let headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store")] + Self.securityHeaders
        guard let token = request.cookies[Self.sessionCookie],
            let role = ConsoleSessions.liveRole(token, in: store, now: now, policy: policy)
        else { return ConsoleResponse(status: 401, headers: headers, body: "[]") }
        guard let status = try? environment.banners(now) else { return ConsoleResponse(status: 503, headers: headers, body: "[]") }
        return ConsoleResponse(status: 200, headers: headers, body: StatusPage.liveBanners(status.shown(seeingPaths: role.seesPaths)))
    }
}
