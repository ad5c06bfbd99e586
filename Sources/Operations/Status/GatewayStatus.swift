public import Foundation
public import Store

/// Everything `smsgw status` shows: modems, the queue, and each contact's sync state. Codable
/// for `--json` (dates as the encoder's strategy writes them).
public struct GatewayStatus: Sendable, Equatable, Codable {
    /// Each modem as its supervisor last recorded it (empty when the daemon never ran); each
    /// names the node that drives it.
    public var modems: [ModemStatusRecord]
    /// Every node that ran on the store (several `smsgw serve` sharing it), by name: up, down
    /// (no heartbeat within its lease) or stopped, with its modems and its last heartbeat.
    public var nodes: [NodeStatus]
    /// How many outbox rows are in each state (`queued`, `submitting`, `sent`, `delivered`, `failed`); every state is present.
    /// In JSON an object keyed by the states' spellings.
    public var outbox: [OutboxState: Int]
    /// The messages still waiting to be sent, oldest first, then the newest that failed (see
    /// ``OutboxEntry``).
    public var queue: [OutboxEntry]
    /// Every contact, by name.
    public var contacts: [ContactStatus]
    /// Whether a daemon runs (nil until the front end asked its lock): `smsgw status` reads the
    /// modems, queue and contacts from the running daemon, else from the store.
    public var daemon: DaemonState?
    /// Set by a running daemon while its store refuses its writes: from the first refused one (a
    /// received SMS, an outbox, event, status or heartbeat write) until one succeeds and no
    /// received SMS waits on a modem (nil otherwise, and whenever no daemon runs).
    public var storeRefusal: StoreRefusal?
    /// Set by a running daemon while received SMS wait on its modems because the store refused
    /// them for a reason other than its storage (``InboxFault``); nil otherwise.
    public var inboxFault: InboxFault?
    /// Text SMS sent longer than ``Unconfirmed/threshold`` ago with neither a delivery report nor
    /// an acknowledgement (``Unconfirmed``); nil while there are none.
    public var unconfirmed: Unconfirmed?
    /// How full the PostgreSQL server's notification queue is, which a listening session that
    /// stopped reading fills until every write fails (see ``Store/NotificationQueueUsage``). In
    /// JSON the fraction, 0 to 1, always present: `null` on SQLite.
    public var notificationQueueUsage = NotificationQueueUsage(nil)
    /// Why the store this status was read from is read-only (it was opened so: its file system
    /// is mounted read-only, or this user may not write to it), nil when it can be written.
    /// Over a running daemon's socket, the daemon's own store, which a daemon never serves
    /// read-only: a file system that turns read-only under it shows as ``storeRefusal``.
    public var storeReadOnly: ReadOnlyReason?
    /// The running daemon's automatic backups (``BackupStatus``). In JSON their object, always
    /// present: `null` when they are off or no daemon runs.
    public var backup = Backups(nil)

    public init(
        modems: [ModemStatusRecord], nodes: [NodeStatus] = [], outbox: [OutboxState: Int], queue: [OutboxEntry] = [],
        contacts: [ContactStatus], daemon: DaemonState? = nil
    ) {
        self.modems = modems
        self.nodes = nodes
        self.outbox = outbox
        self.queue = queue
        self.contacts = contacts
        self.daemon = daemon
    }

    /// The last completed resync of a contact.
    public struct LastResync: Sendable, Equatable, Codable {
        /// The epoch it put in force.
        public var epoch: UInt32
        /// When it completed; nil when an earlier version of smsgw recorded it.
        public var completedAt: Date?

        public init(epoch: UInt32, completedAt: Date?) {
            self.epoch = epoch
            self.completedAt = completedAt
        }
    }
}
