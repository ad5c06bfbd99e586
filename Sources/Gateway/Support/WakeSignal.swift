import Dispatch
import Synchronization

/// A doorbell for one waiting task: ``ring()`` from anywhere, ``wait(until:)`` in the task that
/// sleeps until it rings or a deadline comes.
///
/// The services of the daemon sleep on these instead of looking at the clock every few
/// milliseconds, so an idle daemon has no timer shorter than its next due time. A ring while
/// nobody waits is kept (once), so a ring between two waits is never lost.
///
/// Deadlines are Dispatch timers (`asyncAfter`), not `Task.sleep`: on Linux a pending
/// `Task.sleep` re-arms the executor's timer every second for as long as it sleeps (a wake-up per
/// second per process, measured with strace), while a Dispatch timer fires once, at its deadline.
final class WakeSignal: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
        /// Tells a deadline that fires late which wait it belonged to.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

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
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let generation = state.withLock { state -> UInt64? in
                    if state.rung {
                        state.rung = false
                        return nil
                    }
                    // Cancelled before the wait began: the handler below found no waiter to resume.
                    if Task.isCancelled { return nil }
                    state.generation &+= 1
                    state.waiter = continuation
                    return state.generation
                }
                guard let generation else { return continuation.resume() }
                if let deadline {
                    DispatchQueue.global().asyncAfter(deadline: Self.dispatchTime(deadline)) { self.expire(generation) }
                }
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

    /// Ends wait number `generation` if it still waits.
    private func expire(_ generation: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.generation == generation, let waiter = state.waiter else { return nil }
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
