import Foundation
import Logging
import Modem
public import ServiceLifecycle
import Store

/// Keeps one modem usable: connects it, checks its health every `health_seconds`, climbs the
/// recovery ladder when a call fails (probe → radio off/on → reopen the port → wait for the
/// device to come back and reopen), stops for good on a wrong PIN, and writes the modem's status
/// to the store for `smsgw status`.
///
/// It also consumes the modem's events: a new message or status report wakes the
/// ``InboxReceiver``, a disconnection starts recovery.
public struct ModemSupervisor: Service {
    let link: ModemLink
    let context: GatewayContext
    let logger: Logger

    /// The longest pause between two connection attempts: short, because a modem that comes back
    /// (replugged, or its port released by an abandoned call) should be used again soon.
    static let maximumReconnectDelay = 5.0

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
        await link.modem.disconnect()
        if link.phase != .wrongPIN { link.update { $0.phase = .stopped } }
        await publish()
    }

    private func consumeEvents() async {
        for await event in link.modem.events {
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

    private func supervise() async {
        guard await connect(initial: true) else { return await idle() }
        var nextHealth = ContinuousClock.now + .seconds(context.intervals.healthSeconds)
        while !Task.isCancelled {
            if link.takeRecoveryRequest() || link.modem.needsRecovery {
                guard await recover() else { return await idle() }
                nextHealth = ContinuousClock.now + .seconds(context.intervals.healthSeconds)
                continue
            }
            if ContinuousClock.now >= nextHealth {
                await checkHealth()
                nextHealth = ContinuousClock.now + .seconds(context.intervals.healthSeconds)
                continue
            }
            await GatewayContext.pause(0.1)
        }
    }

    /// A stopped modem waits for the shutdown (a returning service would end the whole group),
    /// refreshing its status every `health_seconds` so `smsgw status` sees the daemon alive.
    private func idle() async {
        while !Task.isCancelled {
            await GatewayContext.pause(context.intervals.healthSeconds)
            if !Task.isCancelled { await publish() }
        }
    }

    /// Reads signal and operator; a failure starts recovery.
    private func checkHealth() async {
        do {
            let status = try await link.call { try await $0.status() }
            link.update {
                $0.signalPercent = status.signalPercent
                $0.networkOperator = status.networkName ?? status.networkCode
            }
            await publish()
        } catch {
            let modemError = Self.modemError(error)
            logger.warning("Health check failed; recovering.", metadata: [GatewayLog.error: "\(modemError)"])
            link.requestRecovery(because: modemError)
        }
    }

    /// Connects, retrying with a growing delay; false when the modem must stay stopped.
    private func connect(initial: Bool) async -> Bool {
        var delay = 1.0
        // A failure is logged when it starts or changes, not at every retry.
        var reported: String?
        while !Task.isCancelled {
            // The device as configured or as the gammurc names it; gammu also takes non-path devices.
            let path = link.modem.configuration.device
            if path.hasPrefix("/"), !FileManager.default.fileExists(atPath: path) {
                let problem = "The device \(path) does not exist; plug the modem in or fix `device` in the configuration."
                if reported != problem {
                    logger.warning("Waiting for the modem's device.", metadata: [GatewayLog.error: "\(problem)"])
                    reported = problem
                }
                await setPhase(.waitingForDevice, error: problem)
                await GatewayContext.pause(1)
                continue
            }
            do {
                if initial && !link.modem.isConnected {
                    try await link.call { try await $0.connect() }
                } else {
                    try await link.call { try await $0.reopen() }
                }
                _ = link.takeRecoveryRequest()
                link.requestInboxScan()
                link.update { $0.lastError = nil }
                await setPhase(.ready, error: nil)
                logger.info("Modem ready.")
                await checkHealth()
                return true
            } catch {
                let modemError = Self.modemError(error)
                if let stop = Self.stopPhase(for: modemError) {
                    let advice = stop == .wrongPIN
                        ? "The SIM refused the PIN from \(link.settings.pinFile ?? "the configuration"); this modem is stopped so the SIM does not lock (no PUK). Put the right PIN in pin_file and restart smsgw."
                        : "\(modemError.message) This modem is stopped until a person fixes it and restarts smsgw."
                    logger.error("Modem stopped.", metadata: [GatewayLog.error: "\(advice)"])
                    await setPhase(stop, error: advice)
                    return false
                }
                let phase: ModemPhase = modemError.code == .deviceNotFound ? .waitingForDevice : .connecting
                if reported != modemError.description {
                    logger.warning("Modem connection failed; retrying.", metadata: [GatewayLog.error: "\(modemError)"])
                    reported = modemError.description
                } else {
                    logger.debug("Modem connection failed again; retrying.", metadata: [GatewayLog.error: "\(modemError)"])
                }
                await setPhase(phase, error: modemError.description)
                await GatewayContext.pause(delay)
                delay = min(delay * 2, Self.maximumReconnectDelay)
            }
        }
        return false
    }

    /// The recovery ladder; false when the modem must stay stopped.
    private func recover() async -> Bool {
        await setPhase(.recovering, error: link.snapshot.lastError)
        logger.notice("Recovering the modem.")
        if link.modem.isConnected {
            let answers = (try? await link.call { try await $0.probe(timeout: .seconds(5)) }) != nil
            if answers && !link.modem.needsRecovery {
                await setPhase(.ready, error: nil)
                link.requestInboxScan()
                return true
            }
            if answers {
                _ = try? await link.call { try await $0.radioReset() }
            }
        }
        return await connect(initial: false)
    }

    private func setPhase(_ phase: ModemPhase, error: String?) async {
        link.update {
            $0.phase = phase
            if error != nil || phase == .ready { $0.lastError = error }
        }
        await publish()
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

    /// The phase a connection error leaves the modem in for good, or nil when retrying may help.
    static func stopPhase(for error: ModemError) -> ModemPhase? {
        switch error.code {
        case .wrongPIN: .wrongPIN
        case .pinRequired, .simLocked, .configuration: .stopped
        default: nil
        }
    }
}
