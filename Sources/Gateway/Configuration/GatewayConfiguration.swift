public import Foundation
public import Logging
public import ModemSimulator
public import Operations

/// Everything `smsgw serve` reads from its TOML file (config/smsgw.toml.example) and environment.
///
/// Build it with ``load(from:environment:)`` or ``init(toml:environment:)`` (both validate and
/// name any bad key), or with ``simulated(dataDirectory:numbers:faults:seed:intervals:)`` for
/// `smsgw serve --sim`. Secrets are never part of it: SIM PINs stay in their `pin_file` until a
/// modem connects.
public struct GatewayConfiguration: Sendable, Equatable {
    /// Where the database lives (`data_dir`; default `/var/lib/smsgw`).
    public var dataDirectory: URL
    /// The log level (`log_level`; default `info`).
    public var logLevel: Logger.Level
    /// The `[intervals]` table.
    public var intervals: Intervals
    /// The `[resync]` and `[replies]` tables: who completes a peer's resync, and the budget of
    /// automatic replies.
    public var resync: ResyncSettings
    /// The `[[modem]]` tables, in file order.
    public var modems: [ModemSettings]
    /// When set, the gateway runs its own in-process simulated network instead of real modems.
    public var simulator: SimulatorSettings?

    /// Timing of polls, health checks and retries, in seconds.
    public struct Intervals: Sendable, Equatable {
        /// `poll_seconds`: how often to read the modems' SMS storage without a notification.
        public var pollSeconds: Double
        /// `health_seconds`: how often each modem is probed.
        public var healthSeconds: Double
        /// `retry_base_seconds`: the first delay after a temporary send failure.
        public var retryBaseSeconds: Double
        /// `retry_max_seconds`: the longest delay between send retries.
        public var retryMaxSeconds: Double
        /// `resync_retry_seconds`: how often an unanswered resync handshake is sent again.
        public var resyncRetrySeconds: Double
        /// `part_timeout_seconds`: how long parts of a concatenated SMS wait on the modem for the
        /// rest before what arrived is logged as partial and deleted (gammu-smsd's
        /// `MultipartTimeout` has the same default, 600).
        public var partTimeoutSeconds: Double

        public init(
            pollSeconds: Double = 5, healthSeconds: Double = 30, retryBaseSeconds: Double = 10,
            retryMaxSeconds: Double = 600, resyncRetrySeconds: Double = 300, partTimeoutSeconds: Double = 600
        ) {
            self.pollSeconds = pollSeconds
            self.healthSeconds = healthSeconds
            self.retryBaseSeconds = retryBaseSeconds
            self.retryMaxSeconds = retryMaxSeconds
            self.resyncRetrySeconds = resyncRetrySeconds
            self.partTimeoutSeconds = partTimeoutSeconds
        }

        /// The delay before retry number `attempt` (1 for the first retry): base·2^(attempt−1), at most max.
        public func retryDelay(afterAttempt attempt: Int) -> Double {
            let exponent = Double(min(max(attempt - 1, 0), 30))
            return min(retryBaseSeconds * pow(2, exponent), retryMaxSeconds)
        }
    }

    /// An in-process simulated network for `smsgw serve --sim`: one simulated modem per number.
    public struct SimulatorSettings: Sendable, Equatable {
        /// Where the pseudo-terminal links, gammurc files, control socket and traffic log go.
        public var directory: URL
        /// The simulated modems' numbers (the first ones the gateway drives; see ``drivenCount``).
        public var numbers: [String]
        /// How many of `numbers` the gateway drives itself; the others are peers to talk to.
        public var drivenCount: Int
        /// Faults the network injects.
        public var faults: FaultPlan
        /// Seed for repeatable fault decisions; random when nil.
        public var seed: UInt64?

        public init(directory: URL, numbers: [String], drivenCount: Int = 1, faults: FaultPlan = .none, seed: UInt64? = nil) {
            self.directory = directory
            self.numbers = numbers
            self.drivenCount = drivenCount
            self.faults = faults
            self.seed = seed
        }
    }

    /// A configuration with the defaults of the example file and no modem.
    public init(
        dataDirectory: URL = URL(fileURLWithPath: "/var/lib/smsgw"), logLevel: Logger.Level = .info,
        intervals: Intervals = Intervals(), resync: ResyncSettings = ResyncSettings(), modems: [ModemSettings] = [],
        simulator: SimulatorSettings? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.logLevel = logLevel
        self.intervals = intervals
        self.resync = resync
        self.modems = modems
        self.simulator = simulator
    }

    /// A configuration for `smsgw serve --sim`: the gateway starts its own simulated network and
    /// drives its first modem(s); the other numbers are peers (reach them with `smsgw sim ctl`).
    ///
    /// - Parameters:
    ///   - dataDirectory: The data directory.
    ///   - numbers: The simulated modems' numbers; the first `driven` are this gateway's.
    ///   - driven: How many modems the gateway drives.
    ///   - directory: Where the network's files go (default: a new temporary directory).
    ///   - faults: Faults to inject.
    ///   - seed: Seed for repeatable faults.
    ///   - intervals: Timing (the defaults poll every second and check health every 10 s).
    public static func simulated(
        dataDirectory: URL, numbers: [String] = ["+15550001", "+15550002"], driven: Int = 1,
        directory: URL? = nil, faults: FaultPlan = .none, seed: UInt64? = nil,
        intervals: Intervals = Intervals(pollSeconds: 1, healthSeconds: 10, retryBaseSeconds: 2, retryMaxSeconds: 60, resyncRetrySeconds: 30)
    ) -> GatewayConfiguration {
        let simDirectory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("smsgw-sim-\(UUID().uuidString.prefix(8))")
        return GatewayConfiguration(
            dataDirectory: dataDirectory, intervals: intervals,
            simulator: SimulatorSettings(
                directory: simDirectory, numbers: numbers, drivenCount: max(1, min(driven, numbers.count)),
                faults: faults, seed: seed)
        )
    }
}
