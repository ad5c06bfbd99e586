public import Foundation
public import Store

/// Everything `smsgw status` shows: modems, the queue, and each contact's sync state. Codable
/// for `--json` (dates as the encoder's strategy writes them).
public struct GatewayStatus: Sendable, Equatable, Codable {
    /// Each modem as its supervisor last recorded it (empty when the daemon never ran).
    public var modems: [ModemStatusRecord]
    /// How many outbox rows are in each state (`queued`, `submitting`, `sent`, `delivered`, `failed`); every state is present.
    public var outbox: [String: Int]
    /// Every contact, by name.
    public var contacts: [ContactStatus]
    /// Whether a daemon runs (nil until the front end asked its lock): `smsgw status` reads the
    /// modems, queue and contacts from the running daemon, else from the store.
    public var daemon: DaemonState?

    public init(modems: [ModemStatusRecord], outbox: [String: Int], contacts: [ContactStatus], daemon: DaemonState? = nil) {
        self.modems = modems
        self.outbox = outbox
        self.contacts = contacts
        self.daemon = daemon
    }

    /// Whether any modem is ready (the daemon runs and can send).
    public var hasReadyModem: Bool { modems.contains { $0.state == ModemPhase.ready.rawValue } }

    /// One contact's keys and traffic.
    public struct ContactStatus: Sendable, Equatable, Codable {
        public var name: String
        public var number: String?
        /// The peer's further numbers (a peer gateway with several modems); SMS go to each in turn.
        public var otherNumbers: [String]
        /// The modem pinned to send to this contact while it is ready; nil for any modem.
        public var modem: String?
        /// Whether ``modem`` names no modem the daemon drives (or last drove), so any modem sends.
        public var modemMissing: Bool
        /// `pending` before pairing, `paired` after.
        public var pairing: String
        /// The resync epoch (0 until the first resync); nil before pairing.
        public var epoch: UInt32?
        /// Messages sealed so far in this epoch.
        public var sendPosition: UInt32?
        /// The next position expected from the peer in this epoch.
        public var receivePosition: UInt32?
        public var sync: SyncState
        /// Incoming ciphertexts kept to retry after the next resync.
        public var quarantined: Int
        public var lastSentAt: Date?
        public var lastReceivedAt: Date?

        public init(
            name: String, number: String?, pairing: String, epoch: UInt32?, sendPosition: UInt32?, receivePosition: UInt32?,
            sync: SyncState, quarantined: Int, lastSentAt: Date?, lastReceivedAt: Date?,
            otherNumbers: [String] = [], modem: String? = nil, modemMissing: Bool = false
        ) {
            self.name = name
            self.number = number
            self.otherNumbers = otherNumbers
            self.modem = modem
            self.modemMissing = modemMissing
            self.pairing = pairing
            self.epoch = epoch
            self.sendPosition = sendPosition
            self.receivePosition = receivePosition
            self.sync = sync
            self.quarantined = quarantined
            self.lastSentAt = lastSentAt
            self.lastReceivedAt = lastReceivedAt
        }
    }

    /// A contact's synchronisation: fine, waiting for a handshake answer, or failing.
    public struct SyncState: Sendable, Equatable, Codable {
        /// `ok`, `not paired`, `resync pending` or `failing`.
        public var state: String
        /// Consecutive incoming messages that failed verification.
        public var consecutiveFailures: Int
        /// What to do, when something is to be done (for example "run `smsgw resync alice`").
        public var advice: String?

        public init(state: String, consecutiveFailures: Int, advice: String?) {
            self.state = state
            self.consecutiveFailures = consecutiveFailures
            self.advice = advice
        }

        /// Whether nothing needs attention.
        public var isOK: Bool { state == "ok" }
    }
}
