/// Metadata keys of the gateway's log lines. Values never hold texts, keys, ciphertexts or PINs.
public enum GatewayLog {
    public static let modem = "smsgw.modem"
    /// A node of the store (another `smsgw serve` sharing it).
    public static let node = "smsgw.node"
    /// Where the store is: a SQLite file's path or a PostgreSQL URL (never a password).
    public static let store = "smsgw.store"
    public static let error = "smsgw.error"
    public static let contact = "smsgw.contact"
    /// The number an SMS came from, when it is none of its contact's.
    public static let number = "smsgw.number"
    /// A message's log id: what `smsgw send` printed, `smsgw log` and `status` show.
    public static let message = "smsgw.message"
    /// An outbox row that carries no logged message (a resync handshake).
    public static let outbox = "smsgw.outbox.id"
    public static let attempt = "smsgw.outbox.attempt"
    public static let reference = "smsgw.modem.reference"
    public static let retryIn = "smsgw.outbox.retry-in"
    public static let failures = "smsgw.contact.failures"
    public static let count = "smsgw.count"
    /// A webhook endpoint: scheme, host and port only (the path may hold a receiver's token).
    public static let webhook = "smsgw.webhook"
    /// A journal event's id.
    public static let event = "smsgw.event"
    /// The smsgw version a daemon runs.
    public static let version = "smsgw.version"
    /// A daemon's data directory (its lock, its status socket, a SQLite store).
    public static let dataDirectory = "smsgw.data-dir"
    /// The directory of the automatic backups (`[backup] directory`).
    public static let backupDirectory = "smsgw.backup.directory"
    /// One automatic backup's file name.
    public static let backupFile = "smsgw.backup.file"
    /// When the next automatic backup is due.
    public static let backupNext = "smsgw.backup.next"
}
