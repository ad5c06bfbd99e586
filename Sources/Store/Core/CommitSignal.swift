import Dispatch
import Synchronization

/// Wakes every task waiting for the next commit to the store.
///
/// A reader that follows a table (the log feed, the event stream of the API and the console)
/// waits on it between reads instead of polling at a short interval: a commit made in this process
/// (the daemon, its API, its console) wakes it at once, and on PostgreSQL so does another node's
/// while this process listens for them (``StoreNotices``). A command's commit on SQLite is not
/// heard of here, nor another node's while the listener is not connected, so each wait also ends
/// at a deadline.
///
/// The deadline is a Dispatch timer, not `Task.sleep`, which on Linux re-arms the executor's timer
/// every second while it sleeps (see the daemon's `WakeSignal`).
public final class CommitSignal: Sendable {
    private struct State {
        var commits: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// The listeners connected now (``StoreNotices``).
        var listeners = 0
    }

    private let state = Mutex(State())

    init() {}

    /// The commits so far: what a reader notes before it reads, to wait after.
    public var count: UInt64 { state.withLock { $0.commits } }

    /// Whether other processes' commits ring this signal too: a listener for the other nodes'
    /// commits is connected (PostgreSQL). While it is, what was read since ``count`` last moved is
    /// still current, give or take the moment a notice takes to arrive.
    public var hearsOtherNodes: Bool { state.withLock { $0.listeners > 0 } }

    /// Says a listener for other processes' commits connected (true) or lost its connection.
    func hearing(_ connected: Bool) {
        state.withLock { $0.listeners += connected ? 1 : -1 }
    }

    /// Says a write transaction committed: wakes every waiter.
    func ring() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.commits &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once a commit came after the `count` noted (at once if one came already), at
    /// `deadline`, or when the task is cancelled, whichever is first.
    public func wait(after count: UInt64, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock { state in
            defer { state.nextWaiter &+= 1 }
            return state.nextWaiter
        }
        let timer = DispatchWorkItem { [weak self] in self?.resume(id) }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    // A commit since `count`, or cancelled before the wait began (the handler
                    // below found no waiter to resume): return at once.
                    guard state.commits == count, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                guard waits else { return continuation.resume() }
                let left = max(deadline - .now, .zero).components
                let nanoseconds = min(left.seconds, 86_400) * 1_000_000_000 + left.attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: timer)
            }
        } onCancel: {
            resume(id)
        }
    }

    /// The longest a reader woken by a commit waits before it reads (``wait(after:since:until:)``).
    public static let gap: Duration = .milliseconds(100)

    /// ``wait(after:until:)`` for a reader that last read at `since`: when a commit wakes it
    /// sooner than ``gap`` after that read, it pauses until then. Under load commits come faster
    /// than anyone needs to look, and reading after each would cost every waiting reader a read
    /// per commit; this way a burst is read in one go, while the first commit after a quiet spell
    /// is read at once.
    public func wait(after count: UInt64, since: ContinuousClock.Instant, until deadline: ContinuousClock.Instant) async {
        await wait(after: count, until: deadline)
        let paced = min(since + Self.gap, deadline)
        if paced > .now { try? await Task.sleep(until: paced) }
    }

    /// Ends one wait (its deadline, its task cancelled); a wait already ended finds nothing.
    private func resume(_ id: UInt64) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.resume()
    }

    /// How many tasks wait now (for tests: a reader that went to sleep).
    public var waiting: Int { state.withLock { $0.waiters.count } }
}
