import Foundation
import Logging

extension GammuModem {
    /// Runs `body` on the modem thread with a deadline, bridged to async.
    ///
    /// When the deadline passes first, the caller gets `timeoutError` (default ``ModemError/Code/timeout``)
    /// at once; a job still queued is dropped, a running one is aborted with `GSM_AbortOperation`,
    /// and the modem is marked as needing recovery.
    func run<Value: Sendable>(
        _ operation: String,
        timeout: Duration? = nil,
        timeoutError: (@Sendable () -> ModemError)? = nil,
        _ body: @escaping @Sendable (GammuSession) throws(ModemError) -> Value
    ) async throws(ModemError) -> Value {
        guard let worker = state.withLock({ $0.worker }) else { throw ModemError.notConnected }
        let limit = timeout ?? configuration.callTimeout
        let pending = PendingCall<Value>()
        var deadline: UInt64?
        defer { if let deadline { watchdog.cancel(deadline) } }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                pending.install(continuation)
                let id = worker.submit { session in
                    guard !pending.isFinished else { return }
                    do throws(ModemError) {
                        pending.resume(.success(try body(session)))
                    } catch {
                        pending.resume(.failure(error))
                    }
                }
                // On the modem's own timer thread: it fires even when every shared thread is stuck.
                deadline = watchdog.schedule(after: limit) { [weak self] in
                    guard pending.claim() else { return }
                    let error = timeoutError?() ?? .timeout(operation, after: limit)
                    // Abort and record before the caller resumes, so that whatever it does next
                    // (reopen, connect) already sees the aborted state machine.
                    if !worker.cancelIfQueued(id) { worker.abortRunning(id) }
                    self?.logger.error(
                        "Modem call overran its deadline; aborted",
                        metadata: [
                            ModemLog.operation: "\(operation)", ModemLog.error: "\(error)",
                        ])
                    self?.noteFailure(error)
                    pending.deliver(.failure(error))
                }
            }
        } catch let error as ModemError {
            noteFailure(error)
            throw error
        } catch {
            throw ModemError(.modemFailure, "Unexpected failure while \(operation): \(error).")
        }
    }

    /// Records what a failure means for the modem's health.
    func noteFailure(_ error: ModemError) {
        let gone = error.code == .deviceGone || error.code == .deviceNotFound
        let report = state.withLock { state -> Bool in
            if error.needsRecovery { state.needsRecovery = true }
            guard gone else { return false }
            state.connected = false
            defer { state.disconnectReported = true }
            return !state.disconnectReported
        }
        if report { eventSink.yield(.disconnected) }
    }

    /// Swaps in a fresh thread and state machine. The old thread closes its port and exits once its
    /// current call returns (never, if libgammu stays stuck: then both leak, by design); since
    /// libgammu opens serial ports exclusively (TIOCEXCL), this waits up to
    /// ``ModemConfiguration/watchdogTimeout`` for that before the new one may open the port.
    func replaceWorker() async throws(ModemError) {
        let fresh = try makeWorker()
        let old = state.withLock { state -> ModemWorker? in
            defer { state.worker = fresh }
            return state.worker
        }
        logger.warning("Replacing the modem thread and its libgammu state machine")
        guard let old else { return }
        old.stop()
        let deadline = ContinuousClock.now + configuration.watchdogTimeout
        while !old.hasExited, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if !old.hasExited {
            logger.error("The old modem thread is stuck in libgammu; it holds the port until it returns")
        }
    }

    /// Creates a session and the thread that owns it.
    func makeWorker() throws(ModemError) -> ModemWorker {
        let session = try GammuSession(configuration: configuration, logger: logger)
        return ModemWorker(
            name: configuration.name, session: session, pollingInterval: configuration.pollingInterval,
            idleCheckInterval: configuration.idleCheckInterval,
            idle: { [weak self] session in self?.idle(session) },
            afterJobs: { [weak self] session in self?.deliverCollected(session) })
    }

    /// Runs on the modem thread after jobs: an announcement read during a job becomes its event
    /// now, not at the next input on the port (which may be long in coming: the thread sleeps).
    private func deliverCollected(_ session: GammuSession) {
        guard session.isConnected, session.hasCollectedNotifications else { return }
        for event in session.collectedNotifications() { eventSink.yield(event) }
    }

    /// Runs on the modem thread when it has nothing to do: reads notifications, notices unplugging.
    private func idle(_ session: GammuSession) {
        guard session.isConnected else { return }
        let (events, alive) = session.pollNotifications()
        for event in events { eventSink.yield(event) }
        if !alive || !FileManager.default.fileExists(atPath: configuration.device) {
            session.disconnect()
            logger.warning("Modem device went away", metadata: [ModemLog.operation: "poll"])
            noteFailure(ModemError(.deviceGone, "The device \(configuration.device) went away. Reopen it once it is back."))
        }
    }
}
