/// Metadata keys of the Store module's log lines, the one place they are named; values never
/// hold secrets, texts or codes.
enum StoreLog {
    static let path = "smsgw.store.path"
    static let mode = "smsgw.store.mode"
    static let migration = "smsgw.store.migration"
    /// The database server's sentence for a transaction it refused (never a statement or value).
    static let reason = "smsgw.store.reason"
    /// Which backend the store runs on: sqlite or postgresql.
    static let backend = "smsgw.store.backend"
    /// How many messages a prune deleted.
    static let pruned = "smsgw.store.pruned"
    static let contact = "smsgw.contact"
    static let failures = "smsgw.account.failures"
    static let lockedUntil = "smsgw.account.locked-until"
    /// The Argon2 parameters a new account was created with.
    static let kdf = "smsgw.account.kdf"
    /// Why a connection or statement failed, as the driver words it (never a password).
    static let error = "smsgw.error"
    /// Seconds until the next attempt to connect again.
    static let retrySeconds = "smsgw.store.retry-in"
}
