import Foundation
public import Operations

extension ConsoleController {
    /// The live log for the page's script, as Server-Sent Events frames: every change committed
    /// after `lastEventID` (a reconnecting browser's `Last-Event-ID`), or after now, each as
    /// `id: SEQ` and `data: JSON` (the message as `smsgw log --json` prints it). Nil when the
    /// request has no live session.
    public func events(_ request: ConsoleRequest, lastEventID: Int64?) -> AsyncThrowingMapSequence<LogFeed, String>? {
        guard let token = request.cookies[Self.sessionCookie],
            (try? ConsoleSessions.resume(token, in: store, now: environment.clock(), policy: policy)) != nil,
            let cursor = try? lastEventID ?? MessageLog.recent(limit: 1, store: store).cursor,
            let feed = try? MessageLog.changes(after: cursor, following: true, store: store)
        else { return nil }
        return feed.map { change in
            "id: \(change.sequence)\ndata: \(try OperationsJSON.string(change))\n\n"
        }
    }
}

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
