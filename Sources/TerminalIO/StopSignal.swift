import Foundation
import Synchronization

/// SIGINT and SIGTERM asking a long command (`log prune`) to stop where it can stop cleanly,
/// rather than ending it mid-transaction; a second one ends the process at once. Beside the
/// masked prompt's handlers (``Terminal/readMasked(prompt:)``), which put echo back and exit.
public enum StopSignal {
    /// The first SIGINT or SIGTERM received since ``install()``, or 0.
    private static let received = Atomic<Int32>(0)

    /// Catches SIGINT and SIGTERM from now on: the first is recorded for ``requested``; a second
    /// ends the process with 128 + its number, as the signal would.
    public static func install() {
        // Made here, not first in the handler: a signal handler may not run Swift's lazy setup.
        received.store(0, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = recordOrExit
        // A system call the signal interrupts (a write of the database) carries on.
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in [SIGINT, SIGTERM] { sigaction(number, &action, nil) }
    }

    /// The signal that asked to stop, or nil while none came.
    public static var requested: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// The signal's name as people write it: `SIGINT`, `SIGTERM`.
    public static func name(_ number: Int32) -> String {
        number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
    }

    /// Records the first signal; ends the process on the second. Only async-signal-safe calls.
    fileprivate static func handle(_ number: Int32) {
        if !received.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged { _exit(128 + number) }
    }
}

private func recordOrExit(_ number: Int32) {
    StopSignal.handle(number)
}
