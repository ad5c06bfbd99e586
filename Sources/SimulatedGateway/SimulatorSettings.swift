public import Foundation
public import Gateway
public import Logging
public import ModemSimulator

/// An in-process simulated network for `smsgw serve --sim`: one simulated modem per number, the
/// first ``drivenCount`` driven by the gateway, the others peers to talk to.
public struct SimulatorSettings: Sendable, Equatable {
    /// Where the pseudo-terminal links, gammurc files, control socket and traffic log go.
    public var directory: URL
    /// Whether ``directory`` is a temporary one made here, removed when the network stops.
    public var directoryIsTemporary: Bool
    /// The simulated modems' numbers (the first ones the gateway drives; see ``drivenCount``).
    public var numbers: [String]
    /// How many of `numbers` the gateway drives itself; the others are peers to talk to.
    public var drivenCount: Int
    /// Faults the network injects.
    public var faults: FaultPlan
    /// Seed for repeatable fault decisions; random when nil.
    public var seed: UInt64?

    /// Settings for a network of `numbers`.
    ///
    /// - Parameters:
    ///   - directory: Where the network's files go (default: a new temporary directory, removed
    ///     when the network stops).
    ///   - numbers: The simulated modems' numbers; the first `driven` are the gateway's.
    ///   - driven: How many modems the gateway drives (at least one, at most all).
    ///   - faults: Faults to inject.
    ///   - seed: Seed for repeatable faults.
    public init(
        directory: URL? = nil, numbers: [String] = ["+15550001", "+15550002"], driven: Int = 1,
        faults: FaultPlan = .none, seed: UInt64? = nil
    ) {
        self.directory = directory ?? SimulatedNetwork.temporaryDirectory()
        self.directoryIsTemporary = directory == nil
        self.numbers = numbers
        self.drivenCount = max(1, min(driven, numbers.count))
        self.faults = faults
        self.seed = seed
    }
}

extension GatewayConfiguration.Intervals {
    /// The timing of `serve --sim`: a poll every second, a health check every 10 s, short retries.
    public static let simulated = GatewayConfiguration.Intervals(
        pollSeconds: 1, healthSeconds: 10, retryBaseSeconds: 2, retryMaxSeconds: 60, resyncRetrySeconds: 30)
}

extension GatewayConfiguration {
    /// This configuration for `serve --sim`: the simulator's modems and timing; of this one, only
    /// the data directory, `[store]`, `[node]`, `[resync]`, `[outbox]`, `[http]`, `[backup]` and
    /// the `[[webhook]]` endpoints count.
    public func simulated(logLevel: Logger.Level) -> GatewayConfiguration {
        var configuration = GatewayConfiguration(dataDirectory: dataDirectory, logLevel: logLevel, intervals: .simulated, resync: resync)
        configuration.outbox = outbox
        configuration.http = http
        configuration.webhooks = webhooks
        configuration.node = node
        configuration.backup = backup
        configuration.store = store
        return configuration
    }
}
