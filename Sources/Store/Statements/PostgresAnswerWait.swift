import NIOCore
import PostgresNIO
import Synchronization

/// Waits for the answers of one connection's statements, one at a time, failing the wait as soon
/// as the connection closes.
///
/// postgres-nio drops a query written to a connection that has already closed without ever
/// completing it: after the server went away (a failover), a pooled connection's next statement
/// would otherwise hold its thread, and the transactions queued behind it, for good. The watch
/// on the connection's close is registered once, when the connection is made, not once per
/// statement: a callback of each statement's would stay on the connection until it closes, with
/// the statement's answer, rows and all, so a process on PostgreSQL would grow with every
/// statement it ever ran.
final class PostgresAnswerWait: Sendable {
    private struct State {
        var closed = false
        /// Fails the answer being waited for, if any.
        var failWaiting: (@Sendable () -> Void)?
    }

    private let connection: PostgresConnection
    private let state = Mutex(State())
    private let waits = Atomic(0)

    /// How many answers were waited for on this connection: its statements, each one round trip.
    var count: Int { waits.load(ordering: .relaxed) }

    init(_ connection: PostgresConnection) {
        self.connection = connection
        // Held by the connection until it closes (``PostgresServer`` closes it when dropped).
        connection.closeFuture.whenComplete { [self] _ in
            let fail = state.withLock { state in
                state.closed = true
                return state.failWaiting
            }
            fail?()
        }
    }

    /// Waits for `answer` on the calling thread (never the connection's event loop), or fails
    /// with ``StoreError/server(_:cause:)`` once the connection is closed, whichever comes first.
    func wait<T: Sendable>(for answer: EventLoopFuture<T>) throws -> T {
        waits.add(1, ordering: .relaxed)
        let outcome = connection.eventLoop.makePromise(of: T.self)
        answer.cascade(to: outcome)
        // Whichever comes first: the other completion is ignored.
        let fail: @Sendable () -> Void = {
            outcome.fail(StoreError.server("the connection to the PostgreSQL server closed", cause: .cannotOpen))
        }
        let closed = state.withLock { state in
            if !state.closed { state.failWaiting = fail }
            return state.closed
        }
        if closed { fail() }
        defer { state.withLock { $0.failWaiting = nil } }
        return try outcome.futureResult.wait()
    }
}
