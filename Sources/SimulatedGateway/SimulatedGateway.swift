public import Gateway
public import Logging
public import ModemSimulator
public import ServiceLifecycle
public import Store

/// A gateway on its own in-process simulated network (`smsgw serve --sim`): the network starts
/// first, the gateway drives its first modem(s) through libgammu like real ones, and the network
/// stops after the gateway has.
///
/// ```swift
/// let simulated = try SimulatedGateway(store: store, configuration: configuration, simulator: SimulatorSettings())
/// try await simulated.run()        // until SIGTERM or SIGINT (or shutdown())
/// ```
/// The Gateway library knows nothing of the simulator; this small target joins the two.
public final class SimulatedGateway: Sendable {
    /// The simulated network; its other modems are peers to talk to.
    public let network: SimulatedNetwork
    /// The gateway over the network's driven modems.
    public let gateway: Gateway

    /// Starts the network and builds the gateway; nothing talks to a modem before ``run()``.
    ///
    /// - Parameters:
    ///   - store: The unlocked store.
    ///   - configuration: Timing, resync and log level; its modems are replaced by the network's.
    ///   - simulator: The network's numbers, directory, faults and seed.
    ///   - logger: Where the gateway logs; the network logs at notice level or above.
    ///   - handlesSignals: Whether SIGTERM and SIGINT shut the gateway down gracefully.
    ///   - statusSocket: Where to answer status requests; nil for none.
    ///   - outboxWake: What wakes the outbox sender; make it first to hand it to a front end too.
    ///   - frontEnds: Services to run beside the gateway's (the HTTP API), made from its status.
    /// - Throws: ``ModemSimulator/SimulatorError`` when the network cannot start; what
    ///   ``Gateway/Gateway/init(store:configuration:logger:handlesSignals:statusSocket:makeModem:)`` throws.
    public init(
        store: UnlockedStore, configuration: GatewayConfiguration, simulator: SimulatorSettings, logger: Logger,
        handlesSignals: Bool = true, statusSocket: String? = nil, outboxWake: OutboxWake = OutboxWake(),
        frontEnds: (LiveStatus) throws -> [any Service] = { _ in [] }
    ) throws {
        var simLogger = logger
        simLogger.logLevel = max(logger.logLevel, .notice)
        let network = SimulatedNetwork(
            directory: simulator.directory, seed: simulator.seed, faults: simulator.faults, logger: simLogger,
            removesDirectory: simulator.directoryIsTemporary)
        for number in simulator.numbers { try network.addModem(number: number) }
        try network.start()
        for modem in network.modems { try network.writeGammurc(for: modem) }
        var configuration = configuration
        configuration.modems = network.modems.prefix(simulator.drivenCount).map { modem in
            ModemSettings(name: modem.number, source: .device(path: modem.devicePath, connection: "at"), callTimeoutSeconds: 15)
        }
        self.network = network
        do {
            gateway = try Gateway(
                store: store, configuration: configuration, logger: logger, handlesSignals: handlesSignals,
                statusSocket: statusSocket, outboxWake: outboxWake, frontEnds: frontEnds)
        } catch {
            network.stop()
            throw error
        }
    }

    /// The names of the modems the gateway drives (their numbers).
    public var modemNames: [String] { gateway.modemNames }

    /// The network's directory, then each simulated number, whether this gateway drives it or it
    /// is a peer to reach, and its gammurc: one line each, for whom to add as contacts.
    public var summary: [String] {
        let driven = modemNames
        return ["Simulated GSM network in \(network.directory.path)"]
            + network.modems.map { modem in
                "modem \(modem.number)  \(driven.contains(modem.number) ? "driven by this gateway" : "peer")  gammurc \(network.gammurc(for: modem).path)"
            }
    }

    /// Runs the gateway until SIGTERM/SIGINT (or ``shutdown()``), then stops the network.
    public func run() async throws {
        defer { network.stop() }
        try await gateway.run()
    }

    /// Starts a graceful shutdown, as SIGTERM does.
    public func shutdown() async {
        await gateway.shutdown()
    }
}
