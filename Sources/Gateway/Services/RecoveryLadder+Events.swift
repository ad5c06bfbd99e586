import Modem
import Store

/// The events: each reports the result of the step the ladder asked for and returns the next.
extension RecoveryLadder {
    /// The device was looked for: open it if it is there, else wait for it.
    mutating func deviceChecked(present: Bool) -> Step {
        guard case .lookingForDevice(var attempt) = state else { return pending }
        guard present else {
            let problem = "The device \(device) does not exist; plug the modem in or fix device in the configuration."
            let notes: [Note] = attempt.reported == problem ? [] : [.waitingForDevice(problem)]
            attempt.reported = problem
            enter(.waitingForDevice, error: problem)
            state = .pausing(attempt, seconds: Self.devicePause)
            return Step(action: pending.action, notes: notes, publishes: true)
        }
        state = .opening(attempt)
        return pending
    }

    /// A pause ended: look for the device again.
    mutating func paused() -> Step {
        guard case .pausing(let attempt, _) = state else { return pending }
        state = .lookingForDevice(attempt)
        return pending
    }

    /// The port opened and the modem was initialised: ready, and its health is read at once.
    mutating func opened() -> Step {
        guard case .opening = state else { return pending }
        enter(.ready, error: nil)
        state = .readingHealth
        return Step(action: .readHealth, notes: [.ready], publishes: true, becameReady: true)
    }

    /// Opening failed: stop for good when retrying cannot help (above all a wrong PIN, which is
    /// never offered again), else pause (1 s, doubling up to ``maximumReconnectDelay``) and retry.
    mutating func openFailed(_ error: ModemError) -> Step {
        guard case .opening(var attempt) = state else { return pending }
        if let stop = Self.stopPhase(for: error) {
            let advice =
                stop == .wrongPIN
                ? "The SIM refused the PIN from \(pinSource); this modem is stopped so the SIM does not lock (no PUK). Put the right PIN in pin_file and restart the daemon."
                : "\(error.message) This modem is stopped until a person fixes it and restarts the daemon."
            enter(stop, error: advice)
            state = .stopped
            return Step(action: .idle, notes: [.stopped(advice)], publishes: true)
        }
        let repeated = attempt.reported == error.description
        attempt.reported = error.description
        enter(error.code == .deviceNotFound ? .waitingForDevice : .connecting, error: error.description)
        let pause = attempt.delay
        attempt.delay = min(attempt.delay * 2, Self.maximumReconnectDelay)
        state = .pausing(attempt, seconds: pause)
        return Step(action: .pause(seconds: pause), notes: [.connectionFailed(error, repeated: repeated)], publishes: true)
    }

    /// Signal and operator were read: serve until the next health check.
    mutating func healthRead() -> Step {
        guard state == .readingHealth else { return pending }
        state = .serving
        return Step(action: .serve, publishes: true)
    }

    /// Reading the health failed: climb the ladder.
    /// - Parameter connected: Whether the modem still counts as connected (then it is probed first).
    mutating func healthFailed(_ error: ModemError, connected: Bool) -> Step {
        guard state == .readingHealth else { return pending }
        enter(phase, error: error.description)
        return recover(connected: connected, notes: [.healthFailed(error)])
    }

    /// The health clock ran out while serving: read the health.
    mutating func healthDue() -> Step {
        guard state == .serving else { return pending }
        state = .readingHealth
        return pending
    }

    /// A call failed in a way that needs recovery (a timeout, a disconnection), or another service
    /// asked for it: climb the ladder.
    /// - Parameters:
    ///   - connected: Whether the modem still counts as connected (then it is probed first).
    ///   - reason: The sentence of the failure, kept as the last error; nil keeps the one there is.
    mutating func recoveryNeeded(connected: Bool, reason: String?) -> Step {
        guard state == .serving else { return pending }
        if let reason { enter(phase, error: reason) }
        return recover(connected: connected, notes: [])
    }

    /// The probe's result: a modem that answers and is not flagged is ready again; one that
    /// answers but is flagged (a call overran) gets its radio reset; a silent one is reopened.
    mutating func probed(answered: Bool, needsRecovery: Bool) -> Step {
        guard state == .probing else { return pending }
        if answered && !needsRecovery {
            enter(.ready, error: nil)
            state = .serving
            return Step(action: .serve, publishes: true, becameReady: true)
        }
        state = answered ? .resettingRadio : .lookingForDevice(Attempt(firstOpen: false))
        return pending
    }

    /// The radio was reset (or the reset failed, which changes nothing): reopen the port.
    mutating func radioReset() -> Step {
        guard state == .resettingRadio else { return pending }
        state = .lookingForDevice(Attempt(firstOpen: false))
        return pending
    }

    /// The daemon shuts down, from any rung: close the port. A wrong PIN stays visible as such.
    mutating func shutDown() -> Step {
        guard state != .shutDown else { return pending }
        enter(phase == .wrongPIN ? .wrongPIN : .stopped, error: nil)
        state = .shutDown
        return Step(action: .close, publishes: true)
    }

    /// Enters the recovering phase and the first rung: the probe, or a reopen when the modem is
    /// not connected (nothing there to probe).
    private mutating func recover(connected: Bool, notes: [Note]) -> Step {
        enter(.recovering, error: nil)
        state = connected ? .probing : .lookingForDevice(Attempt(firstOpen: false))
        return Step(action: pending.action, notes: notes + [.recovering], publishes: true)
    }

    /// The phase a connection error leaves the modem in for good, or nil when retrying may help.
    static func stopPhase(for error: ModemError) -> ModemPhase? {
        switch error.code {
        case .wrongPIN: .wrongPIN
        case .pinRequired, .simLocked, .configuration: .stopped
        default: nil
        }
    }
}
