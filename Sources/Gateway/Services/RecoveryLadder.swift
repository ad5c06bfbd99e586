import Modem
import Store

/// The recovery ladder of one modem as a value: what the last step found goes in, the next step
/// comes out. No I/O, no clock, no modem; ``ModemSupervisor`` performs the steps and feeds their
/// results back.
///
/// ```swift
/// var ladder = RecoveryLadder(device: modem.device, pinSource: "/etc/smsgw/pin")
/// var step = ladder.start()                    // .checkDevice
/// step = ladder.deviceChecked(present: true)   // .connect
/// step = ladder.opened()                       // .readHealth, the phase is now ready
/// ```
///
/// The ladder: open the port (waiting while the device is missing, retrying with a growing pause);
/// once ready, read the health on a clock; when a call failed, probe the modem, reset its radio if
/// it answers but is flagged, and otherwise (or then) reopen the port. A wrong PIN, a missing PIN,
/// a PUK lock or a bad configuration stops the modem for good: the PIN is never offered again, so
/// the SIM does not lock. An event the pending step did not ask for changes nothing and repeats
/// that step, so a misplaced result can never skip a rung.
struct RecoveryLadder: Sendable, Hashable {
    /// Where the ladder is.
    enum State: Sendable, Hashable {
        /// About to look whether the device is there, before opening it.
        case lookingForDevice(Attempt)
        /// Opening the port: ``Action/connect`` the first time, ``Action/reopen`` after.
        case opening(Attempt)
        /// Pausing before the next look at the device.
        case pausing(Attempt, seconds: Double)
        /// Reading signal and operator, right after opening and then on the health clock.
        case readingHealth
        /// Ready: sends and reads go through; waiting for the health clock or a recovery request.
        case serving
        /// Asking a modem that may be hung whether it answers.
        case probing
        /// Switching the radio off and on; the port is reopened after it.
        case resettingRadio
        /// Stopped for good until a person fixes the cause and restarts the daemon.
        case stopped
        /// Shut down: the port is closed and nothing follows.
        case shutDown
    }

    /// One run of connection attempts, from the first look at the device until the port opens.
    struct Attempt: Sendable, Hashable {
        /// Whether the port was never opened: the first open is a connect, later ones a reopen.
        var firstOpen: Bool
        /// The pause after the next failed open, in seconds.
        var delay = 1.0
        /// The problem logged last: a failure is logged when it starts or changes, not at every retry.
        var reported: String?
    }

    /// What the supervisor does next, and the event that reports its result.
    enum Action: Sendable, Hashable {
        /// Look whether the device exists; report ``RecoveryLadder/deviceChecked(present:)``.
        case checkDevice
        /// Open the port the first time; report ``RecoveryLadder/opened()`` or ``RecoveryLadder/openFailed(_:)``.
        case connect
        /// Close and open the port again; report as for ``connect``.
        case reopen
        /// Sleep, then report ``RecoveryLadder/paused()``.
        case pause(seconds: Double)
        /// Read signal and operator; report ``RecoveryLadder/healthRead()`` or ``RecoveryLadder/healthFailed(_:connected:)``.
        case readHealth
        /// Serve until the health clock (``RecoveryLadder/healthDue()``) or a failed call
        /// (``RecoveryLadder/recoveryNeeded(connected:reason:)``).
        case serve
        /// Probe with ``RecoveryLadder/probeTimeout``; report ``RecoveryLadder/probed(answered:needsRecovery:)``.
        case probe
        /// Reset the radio, whatever the outcome; report ``RecoveryLadder/radioReset()``.
        case resetRadio
        /// Stay stopped, keeping the status row fresh, until ``RecoveryLadder/shutDown()``.
        case idle
        /// Close the port; nothing follows.
        case close
    }

    /// Something the supervisor logs on the way; the ladder decides what is worth a line.
    enum Note: Sendable, Hashable {
        /// The device is missing (the sentence says which and what to do); logged once per absence.
        case waitingForDevice(String)
        /// Opening failed; `repeated` when it failed the same way last time (logged at debug level).
        case connectionFailed(ModemError, repeated: Bool)
        /// The port opened and the modem answers.
        case ready
        /// The modem stopped for good; the sentence says why and what to do.
        case stopped(String)
        /// Reading the health failed; recovery follows.
        case healthFailed(ModemError)
        /// The ladder is climbed.
        case recovering
    }

    /// The answer to an event: what to do now and what to tell.
    struct Step: Sendable, Hashable {
        /// What to do now.
        var action: Action
        /// Lines for the log.
        var notes: [Note] = []
        /// Whether the status row is written now: the phase or error was set (even to what it
        /// was, so a modem that keeps failing still shows the daemon alive).
        var publishes = false
        /// Whether the modem just became ready: requests to recover from before go, the inbox is read.
        var becameReady = false
    }

    /// The longest pause between two connection attempts: short, because a modem that comes back
    /// (replugged, or its port released by an abandoned call) should be used again soon.
    static let maximumReconnectDelay = 5.0
    /// The pause between two looks at a missing device.
    static let devicePause = 1.0
    /// The deadline of a probe: short, so the ladder learns quickly that a modem is silent.
    static let probeTimeout = Duration.seconds(5)

    /// Where the ladder is.
    var state: State
    /// The phase `smsgw status` shows.
    private(set) var phase: ModemPhase = .connecting
    /// The sentence `smsgw status` shows as the last error, nil once the modem is ready.
    private(set) var lastError: String?
    /// The device, for the sentence that says it is missing.
    let device: String
    /// Where the PIN came from, for the sentence that says it was refused (never the PIN itself).
    let pinSource: String

    /// A ladder about to open `device` for the first time.
    init(device: String, pinSource: String) {
        self.device = device
        self.pinSource = pinSource
        self.state = .lookingForDevice(Attempt(firstOpen: true))
    }

    /// The step the current state waits on, without notes: the first step, and the answer to an
    /// event that does not fit the state.
    var pending: Step {
        switch state {
        case .lookingForDevice: Step(action: .checkDevice)
        case .opening(let attempt): Step(action: attempt.firstOpen ? .connect : .reopen)
        case .pausing(_, let seconds): Step(action: .pause(seconds: seconds))
        case .readingHealth: Step(action: .readHealth)
        case .serving: Step(action: .serve)
        case .probing: Step(action: .probe)
        case .resettingRadio: Step(action: .resetRadio)
        case .stopped: Step(action: .idle)
        case .shutDown: Step(action: .close)
        }
    }

    /// The first step: look for the device.
    func start() -> Step { pending }

    /// Sets the phase; an error replaces the last one, and ready clears it.
    mutating func enter(_ phase: ModemPhase, error: String?) {
        self.phase = phase
        if error != nil || phase == .ready { lastError = error }
    }

    /// Whether the modem may still be used: neither stopped for good nor shut down.
    var isRunning: Bool { state != .stopped && state != .shutDown }
}
