import Foundation
import Logging
import Modem
public import ServiceLifecycle
import Store

/// Keeps one modem usable: performs the steps of its ``RecoveryLadder`` (connect, check the health
/// every `health_seconds`, and when a call fails probe → radio off/on → reopen the port → wait for
/// the device to come back and reopen; stop for good on a wrong PIN) and writes the modem's status
/// to the store for `smsgw status`.
///
/// The ladder decides; this service only talks to the modem, sleeps, logs and publishes. It also
/// consumes the modem's events: a new message or status report wakes the ``InboxReceiver``, a
/// disconnection starts recovery.
public struct ModemSupervisor: Service {
    let link: ModemLink
    let context: GatewayContext
    let logger: Logger

    init(link: ModemLink, context: GatewayContext) {
        self.link = link
        self.context = context
        var logger = context.logger
        logger[metadataKey: GatewayLog.modem] = "\(link.name)"
        self.logger = logger
    }

    /// The modem's name.
    public var name: String { link.name }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.consumeEvents() }
                group.addTask { await self.supervise() }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private func consumeEvents() async {
        for await event in link.modem.events {
            if case .disconnected = event {} else { link.heard() }
            switch event {
            case .newMessage, .statusReport:
                link.requestInboxScan()
            case .storageFull:
                logger.warning("The modem says its SMS storage is full; freeing it.")
                link.reportStorageFull()
            case .received(let sms):
                // A +CMT delivery exists only in this event: hand it over before anything else.
                link.receiveDirect(sms)
            case .disconnected:
                logger.warning("The modem disconnected; recovering.")
                link.requestRecovery(because: ModemError(.deviceGone, "The modem disconnected (unplugged or reset)."))
            }
        }
    }

    /// Performs the ladder's steps until the task is cancelled (a modem stopped for good idles
    /// until then), then closes the port and publishes the final phase.
    private func supervise() async {
        var ladder = RecoveryLadder(device: link.modem.device, pinSource: link.settings.pinFile ?? "the configuration")
        var step = ladder.start()
        while !Task.isCancelled {
            await report(step, of: ladder)
            // Each step comes at least every health_seconds: the node's heartbeat rides on them.
            await context.heartbeatIfDue()
            step = await perform(step.action, on: &ladder)
        }
        step = ladder.shutDown()
        await link.modem.disconnect()
        await report(step, of: ladder)
    }

    /// Performs one action and reports its result to the ladder; the ladder's next step.
    private func perform(_ action: RecoveryLadder.Action, on ladder: inout RecoveryLadder) async -> RecoveryLadder.Step {
        switch action {
        case .checkDevice:
            return ladder.deviceChecked(present: link.modem.deviceIsPresent)
        case .connect, .reopen:
            do {
                try await link.call { modem in
                    if action == .reopen { try await modem.reopen() } else { try await modem.connect() }
                }
                return ladder.opened()
            } catch {
                return ladder.openFailed(Self.modemError(error))
            }
        case .pause(let seconds):
            await GatewayContext.pause(seconds)
            return ladder.paused()
        case .readHealth:
            do {
                let status = try await link.call { try await $0.status() }
                link.update {
                    $0.signalPercent = status.signalPercent
                    $0.networkOperator = status.networkName ?? status.networkCode
                }
                return ladder.healthRead()
            } catch {
                return ladder.healthFailed(Self.modemError(error), connected: link.modem.isConnected)
            }
        case .serve:
            return await serve(&ladder)
        case .probe:
            let answered = (try? await link.call { try await $0.probe(timeout: RecoveryLadder.probeTimeout) }) != nil
            return ladder.probed(answered: answered, needsRecovery: link.modem.needsRecovery)
        case .resetRadio:
            _ = try? await link.call { try await $0.radioReset() }
            return ladder.radioReset()
        case .idle:
            await idle()
            return ladder.pending
        case .close:
            return ladder.pending
        }
    }

    /// Serves until the health check is due or a call failed; the ladder's answer to what woke it.
    /// It sleeps in between: a recovery request rings it (``ModemLink/requestRecovery(because:)``).
    private func serve(_ ladder: inout RecoveryLadder) async -> RecoveryLadder.Step {
        let due = ContinuousClock.now + .milliseconds(Int64(context.intervals.healthSeconds * 1000))
        while !Task.isCancelled {
            if let reason = link.takeRecoveryRequest() {
                return ladder.recoveryNeeded(connected: link.modem.isConnected, reason: reason)
            }
            if link.modem.needsRecovery {
                return ladder.recoveryNeeded(connected: link.modem.isConnected, reason: nil)
            }
            if ContinuousClock.now >= due { return ladder.healthDue() }
            await link.recoveryBell.wait(until: due)
        }
        return ladder.pending
    }

    /// A stopped modem waits for the shutdown (a returning service would end the whole group),
    /// refreshing its status every `health_seconds` so `smsgw status` sees the daemon alive.
    private func idle() async {
        while !Task.isCancelled {
            await GatewayContext.pause(context.intervals.healthSeconds)
            if !Task.isCancelled {
                await publish()
                await context.heartbeatIfDue()
            }
        }
    }

    /// Logs the step's notes, and writes the ladder's phase and error to the link and the store
    /// when the step says so.
    private func report(_ step: RecoveryLadder.Step, of ladder: RecoveryLadder) async {
        for note in step.notes { log(note) }
        if step.becameReady {
            _ = link.takeRecoveryRequest()
            link.requestInboxScan()
        }
        guard step.publishes else { return }
        link.enter(ladder.phase, lastError: ladder.lastError, now: Date())
        // Readiness changed: this modem's worker may claim again, the others may take over its pinned contacts.
        context.outboxWake.wake()
        await publish()
    }

    private func log(_ note: RecoveryLadder.Note) {
        switch note {
        case .waitingForDevice(let problem):
            logger.warning("Waiting for the modem's device.", metadata: [GatewayLog.error: "\(problem)"])
        case .connectionFailed(let error, repeated: false):
            logger.warning("Modem connection failed; retrying.", metadata: [GatewayLog.error: "\(error)"])
        case .connectionFailed(let error, repeated: true):
            logger.debug("Modem connection failed again; retrying.", metadata: [GatewayLog.error: "\(error)"])
        case .ready:
            logger.info("Modem ready.")
        case .stopped(let advice):
            logger.error("Modem stopped.", metadata: [GatewayLog.error: "\(advice)"])
        case .healthFailed(let error):
            logger.warning("Health check failed; recovering.", metadata: [GatewayLog.error: "\(error)"])
        case .recovering:
            logger.notice("Recovering the modem.")
        }
    }

    /// Writes the modem's status row; a store failure is logged, never fatal.
    func publish() async {
        let record = link.record
        do {
            try await context.store.write { try $0.saveModemStatus(record) }
        } catch {
            logger.warning("Could not save the modem status.", metadata: [GatewayLog.error: "\(error)"])
        }
    }

    static func modemError(_ error: any Error) -> ModemError {
        (error as? ModemError) ?? ModemError(.modemFailure, "\(error)")
    }
}
