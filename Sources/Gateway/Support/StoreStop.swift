import Dispatch
import Logging
import ServiceLifecycle
import Synchronization

/// How long the daemon's graceful stop waits for a store write (or read) that does not answer:
/// one blocked behind another process's lock, or sent to a PostgreSQL server that hangs.
///
/// Once a stop begins (``Watch``), each store call the daemon waits on is given up
/// ``graceSeconds`` after the later of the stop's start and its own, with
/// ``GatewayError/storeStopped(graceSeconds:)``: what it would have changed stays as it was (a
/// sent SMS stays submitting), and the log says so once. Once one was given up the store counts
/// as hung: every call waiting is given up with it, and each one asked after that fails at once; a stop that is merely slow (a loaded
/// machine) gives up nothing, so its last writes (a modem recorded as stopped) still land. The
/// call itself may still finish on its queue; no one waits for it.
final class StoreStop: Sendable {
    /// The grace: the same as the one for recording a sent SMS (``OutboxSender/stopGraceSeconds``).
    static let graceSeconds = OutboxSender.stopGraceSeconds

    private struct State {
        var begun = false
        /// Whether a call was given up: the store does not answer, so no later call waits.
        var hung = false
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

    /// Starts the grace of every call waiting now; the first call counts.
    func begin() {
        let tickets = state.withLock { state -> [Int]? in
            guard !state.begun else { return nil }
            state.begun = true
            return Array(state.waiting.keys)
        }
        if let tickets { giveUp(tickets, after: graceSeconds) }
    }

    /// Remembers `giveUp`, called if the call's grace ends before ``finished(_:)``; nil (and
    /// `giveUp` not kept) once a call was given up.
    func waiting(_ giveUp: @escaping @Sendable () -> Void) -> Int? {
        let (ticket, begun) = state.withLock { state -> (Int?, Bool) in
            guard !state.hung else { return (nil, state.begun) }
            state.next += 1
            state.waiting[state.next] = giveUp
            return (state.next, state.begun)
        }
        if let ticket, begun { self.giveUp([ticket], after: graceSeconds) }
        return ticket
    }

    /// The call `ticket` stands for finished: nothing to give up.
    func finished(_ ticket: Int) {
        _ = state.withLock { $0.waiting.removeValue(forKey: ticket) }
    }

    /// Gives up those of `tickets` still waiting `seconds` from now.
    private func giveUp(_ tickets: [Int], after seconds: Double) {
        guard !tickets.isEmpty else { return }
        GraceQueue.shared.asyncAfter(deadline: .now() + seconds) {
            // One call past its grace: the store does not answer, and every call waiting (each
            // behind it on the runner's queue) is given up with it.
            let (given, first) = self.state.withLock { state -> ([@Sendable () -> Void], Bool) in
                guard tickets.contains(where: { state.waiting[$0] != nil }) else { return ([], false) }
                defer { state.waiting = [:] }
                let first = !state.hung
                state.hung = true
                return (Array(state.waiting.values), first)
            }
            if first {
                self.logger?.error(
                    "Stopping without waiting for store writes that did not finish within the stop's grace; what they would change stays as it was (a sent SMS stays submitting and is sent again).",
                    metadata: [GatewayLog.count: "\(given.count)", GatewayLog.error: "\(self.error)"])
            }
            for giveUp in given { giveUp() }
        }
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
