public import Foundation
public import Logging
public import Operations

/// Everything `smsgw serve` reads from its TOML file (config/smsgw.toml.example) and environment.
///
/// Build it with ``load(from:environment:)`` or ``init(toml:environment:)`` (both validate and
/// name any bad key), or in code (`serve --sim` fills ``modems`` with its simulated network's).
/// Secrets are never part of it: SIM PINs stay in their `pin_file` until a
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
    /// The `[outbox]` table: when the sender gives up on an SMS that keeps failing temporarily.
    public var outbox = OutboxSettings()
    /// The `[[modem]]` tables, in file order.
    public var modems: [ModemSettings]
    /// The `[node]` table: this daemon's name among the nodes sharing the store.
    public var node = NodeSettings()
    /// The `[http]` table: the HTTP API's listener.
    public var http = HTTPSettings()
    /// The `[[webhook]]` tables, in file order: where events are delivered, signed.
    public var webhooks: [WebhookEndpoint] = []
    /// The `[store]` table: SQLite in the data directory, or a PostgreSQL database.
    public var store = StoreSettings()
    /// The `[backup]` table: the daemon's own backups of a SQLite store (off by default).
    public var backup = BackupSettings()

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
        /// `long_text_timeout_seconds`: how long a long text (protocol version 2) waits for its
        /// missing parts before it is logged with the gaps marked.
        public var longTextTimeoutSeconds: Double = 3600
        /// `ack_delay_seconds`: how long a decrypted message waits for others to share its acknowledgement.
        public var acknowledgementDelaySeconds: Double = 30
        /// `ack_timeout_seconds`: how long a part waits for its acknowledgement before it is sent
        /// again; each further wait is twice as long.
        public var acknowledgementTimeoutSeconds: Double = 120

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

    /// A configuration with the defaults of the example file and no modem.
    public init(
        dataDirectory: URL = URL(fileURLWithPath: "/var/lib/smsgw"), logLevel: Logger.Level = .info,
        intervals: Intervals = Intervals(), resync: ResyncSettings = ResyncSettings(), modems: [ModemSettings] = []
    ) {
        self.dataDirectory = dataDirectory
        self.logLevel = logLevel
        self.intervals = intervals
        self.resync = resync
        self.modems = modems
    }
}
