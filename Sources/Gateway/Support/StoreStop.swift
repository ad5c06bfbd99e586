import Dispatch
import Logging
import ServiceLifecycle
import Synchronization

/// How long the daemon's graceful stop waits for a store write (or read) that does not answer:
/// one blocked behind another process's lock, or sent to a PostgreSQL server that hangs.
///
/// From the moment a stop begins (``Watch``), each store call the daemon still waits on is given
/// up ``graceSeconds`` later, and each one asked after that fails at once, with
/// ``GatewayError/storeStopped(graceSeconds:)``: what it would have changed stays as it was (a
/// sent SMS stays submitting), and the log says so once. The call itself may still finish on its
/// queue; no one waits for it.
final class StoreStop: Sendable {
    /// The grace: the same as the one for recording a sent SMS (``OutboxSender/stopGraceSeconds``).
    static let graceSeconds = OutboxSender.stopGraceSeconds

    private struct State {
        var begun = false
        var expired = false
        var next = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())
    private let logger: Logger?
    private let graceSeconds: Double

    init(logger: Logger? = nil, graceSeconds: Double = StoreStop.graceSeconds) {
        self.logger = logger
        self.graceSeconds = graceSeconds
    }

    /// The error of a call given up (or refused) because the stop's grace is over.
    var error: GatewayError { .storeStopped(graceSeconds: graceSeconds) }

    /// Starts the grace; the first call counts.
    func begin() {
        let first = state.withLock { state in
            defer { state.begun = true }
            return !state.begun
        }
        guard first else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + graceSeconds) { self.expire() }
    }

    /// Remembers `giveUp`, called if the grace ends before ``finished(_:)``; nil (and `giveUp`
    /// not kept) once it has ended.
    func waiting(_ giveUp: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.expired else { return nil }
            state.next += 1
            state.waiting[state.next] = giveUp
            return state.next
        }
    }

    /// The call `ticket` stands for finished: nothing to give up.
    func finished(_ ticket: Int) {
        _ = state.withLock { $0.waiting.removeValue(forKey: ticket) }
    }

    private func expire() {
        let given = state.withLock { state in
            state.expired = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        if !given.isEmpty {
            logger?.error(
                "Stopping without waiting for store writes that did not finish within the stop's grace; what they would change stays as it was (a sent SMS stays submitting and is sent again).",
                metadata: [GatewayLog.count: "\(given.count)", GatewayLog.error: "\(error)"])
        }
        for giveUp in given { giveUp() }
    }

    /// Starts the grace when the gateway's graceful stop begins: the last service of the
    /// gateway, so the first one the stop reaches.
    struct Watch: Service {
        let stop: StoreStop

        func run() async throws {
            try? await gracefulShutdown()
            stop.begin()
        }
    }
}
