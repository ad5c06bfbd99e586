import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own that runs actions at deadlines: the watchdog of one modem's calls.
///
/// The deadline of a hung libgammu call must fire even when every shared thread is busy or
/// blocked, so it is not scheduled on `DispatchQueue.global()` (whose pool the same process also
/// uses for everything else) nor on Swift's cooperative pool. The thread sleeps on a condition
/// variable with no wake-ups while nothing is scheduled, and measures deadlines on the monotonic
/// clock, so a change of the wall clock neither fires nor delays them.
///
/// `@unchecked Sendable`: `entries`, `nextID` and `stopped` are read and written only with `mutex`
/// held; the mutex and condition are created before the thread starts and freed only after it ended.
final class WatchdogTimer: @unchecked Sendable {
    typealias Action = @Sendable () -> Void

    private struct Entry {
        let id: UInt64
        /// Nanoseconds on CLOCK_MONOTONIC.
        let deadline: UInt64
        let action: Action
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var entries: [Entry] = []
    private var nextID: UInt64 = 1
    private var stopped = false

    /// Starts the thread.
    /// - Parameter name: The thread's name (at most 15 bytes are kept), for debuggers and `top -H`.
    init(name: String) {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        let threadName = String(name.prefix(15))
        // The thread holds the timer until it has stopped, so the mutex outlives every use.
        let thread = Thread { [self] in
            Thread.current.name = threadName
            self.runLoop()
        }
        thread.stackSize = 256 << 10
        thread.start()
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `action` on the timer thread once `delay` has passed, unless cancelled first.
    /// - Returns: A token for ``cancel(_:)``.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping Action) -> UInt64 {
        let deadline = Self.now() &+ Self.nanoseconds(delay)
        return locked {
            let id = nextID
            nextID += 1
            entries.append(Entry(id: id, deadline: deadline, action: action))
            pthread_cond_signal(condition)
            return id
        }
    }

    /// Drops an action that has not run yet; returns whether it was still scheduled.
    @discardableResult
    func cancel(_ id: UInt64) -> Bool {
        locked {
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
            entries.remove(at: index)
            return true
        }
    }

    /// How many actions wait for their deadline.
    var scheduledCount: Int { locked { entries.count } }

    /// Ends the thread; actions not yet run are dropped. Safe to call from an action.
    func stop() {
        locked {
            stopped = true
            entries.removeAll()
            pthread_cond_signal(condition)
        }
    }

    private func runLoop() {
        pthread_mutex_lock(mutex)
        while !stopped {
            guard let earliest = entries.indices.min(by: { entries[$0].deadline < entries[$1].deadline }) else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            let deadline = entries[earliest].deadline
            if Self.now() >= deadline {
                let entry = entries.remove(at: earliest)
                // Actions run unlocked: they may schedule, cancel or stop.
                pthread_mutex_unlock(mutex)
                entry.action()
                pthread_mutex_lock(mutex)
                continue
            }
            var until = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            pthread_cond_timedwait(condition, mutex, &until)
        }
        pthread_mutex_unlock(mutex)
    }

    private func locked<Value>(_ body: () -> Value) -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
