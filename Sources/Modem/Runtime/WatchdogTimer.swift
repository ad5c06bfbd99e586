import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs actions at deadlines: the watchdog of one modem's calls.
///
/// The deadline of a hung libgammu call must fire even when every shared thread is busy or
/// blocked, so it is not scheduled on `DispatchQueue.global()` (whose pool the same process also
/// uses for everything else) nor on Swift's cooperative pool. The thread sleeps on a semaphore
/// with no wake-ups while nothing is scheduled, and measures deadlines on the monotonic clock, so
/// a change of the wall clock neither fires nor delays them.
final class WatchdogTimer: Sendable {
    typealias Action = @Sendable () -> Void

    private struct Entry {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let action: Action
    }

    private struct State {
        var entries: [Entry] = []
        var nextID: UInt64 = 1
        var stopped = false
    }

    private let state = Mutex(State())
    /// The timer thread's identity, set as it starts.
    private let thread = Mutex<pthread_t?>(nil)
    /// Signalled whenever the earliest deadline may have changed or the timer stops; the thread
    /// then looks at ``state`` again (extra signals only make it look once more).
    private let changed = DispatchSemaphore(value: 0)

    /// Starts the thread.
    /// - Parameter name: The thread's name (at most 15 bytes are kept), for debuggers and `top -H`.
    init(name: String) {
        let threadName = String(name.prefix(15))
        // The thread holds the timer until it has stopped.
        let worker = Thread { [self] in
            Thread.current.name = threadName
            self.thread.withLock { $0 = pthread_self() }
            self.runLoop()
        }
        worker.stackSize = 256 << 10
        worker.start()
    }

    /// Runs `action` on the timer thread once `delay` has passed, unless cancelled first.
    /// - Returns: A token for ``cancel(_:)``.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping Action) -> UInt64 {
        let deadline = ContinuousClock.now + max(delay, .zero)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries.append(Entry(id: id, deadline: deadline, action: action))
            return id
        }
        changed.signal()
        return id
    }

    /// Drops an action that has not run yet; returns whether it was still scheduled.
    @discardableResult
    func cancel(_ id: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return false }
            state.entries.remove(at: index)
            return true
        }
    }

    /// Whether the caller runs on the timer's own thread (what its actions do).
    var isCurrentThread: Bool {
        thread.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// How many actions wait for their deadline.
    var scheduledCount: Int { state.withLock { $0.entries.count } }

    /// Ends the thread; actions not yet run are dropped. Safe to call from an action.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.entries.removeAll()
        }
        changed.signal()
    }

    /// What the thread does next.
    private enum Step {
        case run(Action)
        case wait(until: ContinuousClock.Instant?)
        case exit
    }

    private func runLoop() {
        while true {
            let step = state.withLock { state -> Step in
                if state.stopped { return .exit }
                guard let earliest = state.entries.indices.min(by: { state.entries[$0].deadline < state.entries[$1].deadline }) else {
                    return .wait(until: nil)
                }
                let deadline = state.entries[earliest].deadline
                guard ContinuousClock.now >= deadline else { return .wait(until: deadline) }
                return .run(state.entries.remove(at: earliest).action)
            }
            switch step {
            case .exit:
                return
            case .run(let action):
                // Actions run unlocked: they may schedule, cancel or stop.
                action()
            case .wait(until: nil):
                changed.wait()
            case .wait(until: let deadline?):
                let left = deadline - ContinuousClock.now
                _ = changed.wait(timeout: .now() + .nanoseconds(Self.nanoseconds(left)))
            }
        }
    }

    /// Whole nanoseconds of `duration` (none when negative), rounded up so a wait never ends early.
    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard duration > .zero else { return 0 }
        // A day at most: the thread looks again then, and no multiplication can overflow.
        guard seconds < 86_400 else { return 86_400 * 1_000_000_000 }
        return Int(seconds) * 1_000_000_000 + Int((attoseconds + 999_999_999) / 1_000_000_000)
    }
}
