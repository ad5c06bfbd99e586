public import Logging
import Synchronization

/// One GSM modem driven through libgammu: connect, send, read, delete, status and recovery.
///
/// Every libgammu call runs on the modem's own thread (see ``ModemWorker``), never on Swift's
/// cooperative pool, and each call has a deadline: when it overruns, a watchdog calls
/// `GSM_AbortOperation`, the caller gets ``ModemError/Code/timeout`` (or
/// ``ModemError/Code/ambiguousSend`` once an SMS was handed over) and ``needsRecovery`` turns true.
/// A supervisor then uses ``probe(timeout:)``, ``radioReset()`` and ``reopen()``.
///
/// `Sendable`: all mutable state sits behind one `Mutex`, and the C state machine is reachable only
/// from the modem thread.
public final class GammuModem: Sendable {
    /// The configuration this modem was created with.
    public let configuration: ModemConfiguration
    /// Unsolicited events: new messages, status reports, disconnection. One consumer.
    public let events: AsyncStream<ModemEvent>

    let logger: Logger
    let eventSink: AsyncStream<ModemEvent>.Continuation
    let state = Mutex(ModemState())
    /// Fires the deadlines of this modem's calls, on a thread of its own.
    let watchdog: WatchdogTimer

    struct ModemState {
        var worker: ModemWorker?
        var connected = false
        var needsRecovery = false
        var pinRejected = false
        var supportsNotifications = false
        var disconnectReported = false
        var generation = 0
    }

    /// Creates the modem's state machine and thread; nothing is opened until ``connect()``.
    /// - Parameters:
    ///   - configuration: Device, connection, PIN and timing.
    ///   - logger: Where the modem logs; the PIN and message texts never go there.
    /// - Throws: ``ModemError`` if libgammu cannot allocate a state machine.
    public init(configuration: ModemConfiguration, logger: Logger) throws(ModemError) {
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: ModemLog.modem] = "\(configuration.name)"
        self.logger = logger
        (events, eventSink) = AsyncStream.makeStream(of: ModemEvent.self, bufferingPolicy: .bufferingNewest(1024))
        watchdog = WatchdogTimer(name: "watch:\(configuration.name)")
        let worker = try makeWorker()
        state.withLock { $0.worker = worker }
    }

    deinit {
        state.withLock { $0.worker }?.stop()
        watchdog.stop()
        eventSink.finish()
    }

    /// Whether the modem announces new messages itself (+CMTI); if not, poll ``messages()``.
    public var supportsNotifications: Bool { state.withLock { $0.supportsNotifications } }
    /// Whether a call timed out or the device failed since the last successful (re)connect.
    public var needsRecovery: Bool { state.withLock { $0.needsRecovery } }
    /// Whether the modem is connected as far as this object knows.
    public var isConnected: Bool { state.withLock { $0.connected } }

    // MARK: Connection

    /// Opens the port and initialises the modem; enters the configured PIN once if the SIM asks.
    ///
    /// A PIN the SIM refuses gives ``ModemError/Code/wrongPIN`` and is never offered again by this
    /// object, not by ``connect()`` nor by ``reopen()``: a SIM locks after three wrong PINs. A PIN
    /// whose answer was lost (timeout, unplug mid-call) counts as refused. A SIM that was unlocked
    /// and asks again after a power cycle gets the PIN once more.
    public func connect() async throws(ModemError) {
        // After an abort the state machine is unusable (libgammu never clears the flag).
        if state.withLock({ $0.worker?.hasAborted ?? true }) { try await replaceWorker() }
        let pinRejected = state.withLock { $0.pinRejected }
        let attempt = PINAttempt()
        let connected: GammuSession.Connected
        do {
            connected = try await run("connecting", timeout: configuration.callTimeout * 2) { session throws(ModemError) in
                try session.connect(pinRejected: pinRejected, attempt: attempt)
            }
        } catch {
            // A PIN whose answer never came (the call failed or was aborted mid-way) is treated as
            // rejected: offering it again could be the SIM's third wrong try.
            let outcome = attempt.seal()
            if error.code == .wrongPIN || outcome == .rejected || outcome == .offered {
                state.withLock { $0.pinRejected = true }
            }
            // The caller decides what a failed open means (retry, wait, stop) and logs it once.
            logger.debug("Modem connection failed", metadata: [ModemLog.error: "\(error)"])
            throw error
        }
        _ = attempt.seal()
        state.withLock {
            $0.connected = true
            $0.needsRecovery = false
            $0.disconnectReported = false
            $0.supportsNotifications = connected.supportsNotifications
        }
        logger.info(
            "Modem connected",
            metadata: [
                ModemLog.model: "\(connected.manufacturer ?? "?") \(connected.model ?? "?")",
                ModemLog.notifications: "\(connected.supportsNotifications)",
            ])
    }

    /// Closes the port. Safe to call when not connected.
    public func disconnect() async {
        _ = try? await run("disconnecting", timeout: configuration.watchdogTimeout) { session throws(ModemError) in
            session.disconnect()
        }
        state.withLock { $0.connected = false }
    }

    // MARK: Messages

    /// Sends exactly `text` as one SMS: GSM-7 default alphabet (DCS 0), no UDH, PDU mode.
    /// - Parameters:
    ///   - text: GSM-7 text of at most 160 septets (extension characters count 2).
    ///   - number: The destination, digits with an optional leading `+`.
    ///   - statusReport: Whether to ask for a status report (TP-SRR).
    /// - Returns: The message reference (TP-MR) that a status report will carry.
    /// - Throws: ``ModemError``; ``ModemError/Code/ambiguousSend`` means the SMS may have gone out:
    ///   resend the same text later or wait for its report, never encrypt new text for it.
    public func send(text: String, to number: String, statusReport: Bool) async throws(ModemError) -> Int {
        let sms = try OutgoingSMS(text: text, number: number, statusReport: statusReport)
        let limit = configuration.callTimeout
        let flag = SubmissionFlag()
        // The job stops waiting for +CMGS a little before the watchdog would fire.
        let deadline = ContinuousClock.now + limit * 0.9
        let reference = try await run(
            "sending an SMS", timeout: limit,
            timeoutError: { flag.isSet ? .ambiguousSend(after: limit) : .timeout("sending an SMS", after: limit) }
        ) { session throws(ModemError) in
            try session.send(sms, deadline: deadline, submitted: flag)
        }
        logger.info("SMS sent", metadata: [ModemLog.reference: "\(reference)", ModemLog.septets: "\(sms.septets.count)"])
        return reference
    }

    /// Every received text and status report in the modem's storage (SIM and phone memory).
    public func messages() async throws(ModemError) -> [StoredMessage] {
        try await storage().messages
    }

    /// Everything in the modem's storage: received messages, outbox copies, and entries that
    /// cannot be read (each with its raw form), so that one bad entry never hides the others.
    public func storage() async throws(ModemError) -> StorageListing {
        // Reading location by location after a failed listing takes one round trip per slot.
        try await run("reading messages", timeout: configuration.callTimeout * 4) { session throws(ModemError) in
            try session.readStorage()
        }
    }

    /// How many SMS each memory holds and can hold.
    public func storageUsage() async throws(ModemError) -> StorageUsage {
        try await run("reading how full the message storage is") { session throws(ModemError) in try session.usage() }
    }

    /// Deletes one stored entry; a location that is ``StoredMessage/Location/notStored`` is left alone.
    public func delete(_ location: StoredMessage.Location) async throws(ModemError) {
        guard location.isStored else { return }
        try await run("deleting a message") { session throws(ModemError) in try session.delete(location) }
    }

    // MARK: Health

    /// Signal, registration, operator, IMEI, IMSI, SMSC and model.
    public func status() async throws(ModemError) -> ModemStatus {
        try await run("reading the modem status") { session throws(ModemError) in try session.status() }
    }
}
