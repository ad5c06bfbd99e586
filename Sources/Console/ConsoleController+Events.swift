import Foundation
public import Operations

extension ConsoleController {
    /// Whether the request carries a live session.
    public func isSignedIn(_ request: ConsoleRequest) -> Bool {
        guard let token = request.cookies[Self.sessionCookie] else { return false }
        return (try? ConsoleSessions.resume(token, in: store, now: environment.clock(), policy: policy)) != nil
    }
}

extension ConsoleController {
    /// Whether the request's session is still alive, without recording a use: the live log asks
    /// before each event it sends, so it ends with the session (sign-out, timeout, a new password,
    /// the operator removed).
    public func isStillSignedIn(_ request: ConsoleRequest) -> Bool {
        guard let token = request.cookies[Self.sessionCookie] else { return false }
        return ConsoleSessions.isLive(token, in: store, now: environment.clock(), policy: policy)
    }
}
