import Logging

extension GammuModem {
    /// A cheap round trip (signal quality) with a short deadline: is the modem answering?
    /// - Parameter timeout: The deadline; keep it short so a supervisor learns quickly.
    public func probe(timeout: Duration = .seconds(5)) async throws(ModemError) {
        try await run("probing", timeout: timeout) { session throws(ModemError) in try session.probe() }
    }

    /// Switches the radio off and on again (`AT+CFUN=0`, `AT+CFUN=1`), or soft-resets the modem
    /// where that is not supported. The port stays open.
    public func radioReset() async throws(ModemError) {
        try await run("resetting the radio", timeout: configuration.callTimeout * 2) { session throws(ModemError) in
            try session.radioReset()
        }
        logger.notice("Modem radio reset")
    }

    /// Closes the port and connects again (with the PIN rules of ``connect()``).
    ///
    /// After the watchdog aborted a call the state machine is replaced, since libgammu 1.42 never
    /// clears its abort flag. If the modem thread is still stuck in that call, or cannot even close
    /// the port within ``ModemConfiguration/watchdogTimeout``, the thread is abandoned too (thread
    /// and state machine are freed if the call ever returns) and a fresh pair takes over.
    public func reopen() async throws(ModemError) {
        let worker = state.withLock { $0.worker }
        if let worker, !worker.hasAborted, !worker.isWedged(grace: configuration.watchdogTimeout) {
            do {
                try await run("closing the port", timeout: configuration.watchdogTimeout) { session throws(ModemError) in
                    session.disconnect()
                }
            } catch {
                try await replaceWorker()
            }
        } else {
            try await replaceWorker()
        }
        state.withLock { $0.connected = false }
        try await connect()
    }
}
