import Dispatch
import Synchronization

/// A doorbell for one waiting task: ``ring()`` from anywhere, ``wait(until:)`` in the task that
/// sleeps until it rings or a deadline comes.
///
/// The services of the daemon sleep on these instead of looking at the clock every few
/// milliseconds, so an idle daemon has no timer shorter than its next due time. A ring while
/// nobody waits is kept (once), so a ring between two waits is never lost.
///
/// Deadlines are a Dispatch timer, not `Task.sleep`: on Linux a pending `Task.sleep` re-arms the
/// executor's timer every second for as long as it sleeps (a wake-up per second per process,
/// measured with strace), while a Dispatch timer fires once, at its deadline.
final class WakeSignal: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
        /// When the waiter's wait ends by itself; nil for none.
        var deadline: DispatchTime?
    }

    private let state = Mutex(State())
    /// One timer per signal, re-armed at each wait: a timer per wait would stay queued until its
    /// own deadline long after a ring ended the wait (a day, for a wait with nothing due).
    /// `nonisolated(unsafe)`: Dispatch sources are thread-safe, only not marked `Sendable`; it is
    /// re-armed by the one waiting task and cancelled in `deinit`.
    nonisolated(unsafe) private let timer = DispatchSource.makeTimerSource(queue: .global())

    init() {
        timer.setEventHandler { [weak self] in self?.expire() }
        timer.schedule(deadline: .distantFuture)
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Wakes the waiting task, or the next one to wait; safe from any thread or task.
    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the first ring (one kept from before counts), at `deadline` (nil: none), or when
    /// the task is cancelled. One task waits at a time.
    func wait(until deadline: ContinuousClock.Instant? = nil) async {
        let end = deadline.map(Self.dispatchTime)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    if state.rung {
                        state.rung = false
                        return false
                    }
                    // Cancelled before the wait began: the handler below found no waiter to resume.
                    if Task.isCancelled { return false }
                    state.waiter = continuation
                    state.deadline = end
                    return true
                }
                guard waits else { return continuation.resume() }
                timer.schedule(deadline: end ?? .distantFuture)
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Whether a task waits now (for tests: a service that went to sleep).
    var hasWaiter: Bool { state.withLock { $0.waiter != nil } }

    /// Sleeps until `deadline` or until the task is cancelled, without a ring: the daemon's pauses.
    static func sleep(until deadline: ContinuousClock.Instant) async {
        await WakeSignal().wait(until: deadline)
    }

    /// Ends the wait whose deadline passed; a timer armed for an earlier wait finds nothing due.
    private func expire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let deadline = state.deadline, DispatchTime.now() >= deadline, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// The same instant on Dispatch's monotonic clock.
    private static func dispatchTime(_ deadline: ContinuousClock.Instant) -> DispatchTime {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return .now() }
        let (seconds, attoseconds) = left.components
        // A day at most: the waiter looks again then, and nothing can overflow.
        let nanoseconds = min(seconds, 86_400) * 1_000_000_000 + attoseconds / 1_000_000_000 + 1
        return .now() + .nanoseconds(Int(nanoseconds))
    }
}
