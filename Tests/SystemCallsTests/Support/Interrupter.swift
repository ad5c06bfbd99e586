import Foundation
import Glibc
import Synchronization
import Testing

@testable import SystemCalls

/// SIGUSR1 handled without SA_RESTART, so a blocking call it interrupts fails with EINTR instead
/// of being restarted by the kernel: what a handler installed by a library or a debugger does.
enum Interrupter {
    /// How many SIGUSR1 the handler has seen.
    static var delivered: Int { interruptions.load(ordering: .relaxed) }

    /// Installs the handler (once; later calls do nothing).
    static func install() {
        installed.withLock { done in
            guard !done else { return }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(SIGUSR1, &action, nil)
            done = true
        }
    }

    /// Runs `call` on a thread of its own and sends that thread SIGUSR1 until `count` signals were
    /// handled, then runs `release` (which lets `call` finish) and returns what `call` returned.
    static func interrupt<T: Sendable>(
        _ count: Int, while call: @escaping @Sendable () throws -> T, release: () throws -> Void
    ) throws -> T {
        install()
        let thread = Mutex<pthread_t?>(nil)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            // Threads started from the test's (dispatch) threads inherit their mask, which blocks signals.
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
            thread.withLock { $0 = pthread_self() }
            let result = Result { try call() }
            outcome.withLock { $0 = result }
            finished.signal()
        }.start()
        let target = start(thread)
        let goal = delivered + count
        // Bounded, so a handler that never runs fails the test instead of hanging it.
        let giveUp = ContinuousClock.now + .seconds(30)
        while delivered < goal, outcome.withLock({ $0 == nil }), ContinuousClock.now < giveUp {
            pthread_kill(target, SIGUSR1)
            usleep(2_000)
        }
        #expect(delivered >= goal || outcome.withLock({ $0 != nil }), "SIGUSR1 was not handled")
        try release()
        finished.wait()
        return try outcome.withLock { $0! }.get()
    }

    private static func start(_ thread: borrowing Mutex<pthread_t?>) -> pthread_t {
        while true {
            if let started = thread.withLock({ $0 }) { return started }
            sched_yield()
        }
    }

    private static let installed = Mutex(false)
}

private let interruptions = Atomic<Int>(0)
