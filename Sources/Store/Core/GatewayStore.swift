public import Foundation
import GRDB
public import Logging
import SystemCalls

/// One gateway's database: opened once per process, shared by the CLI and the daemon.
///
/// A SQLite file in the data directory by default; opening creates the data directory (0700)
/// and the database (0600, WAL, foreign keys, `secure_delete`), then runs the migrations. Or a
/// PostgreSQL database (``open(postgres:directory:logger:)``), the same tables and the same
/// encrypted columns; the data directory then holds only the node's locks and status socket
/// (``StoreBackend`` says what else differs). Everything secret needs an ``UnlockedStore``,
/// obtained with ``createAccount(username:passphrase:parameters:)`` or ``unlock(passphrase:now:)``.
public final class GatewayStore: Sendable {
    /// The file name of the database inside the data directory.
    public static let databaseFileName = "smsgw.sqlite"

    /// How long a write waits for another process's transaction before giving up.
    static let busyTimeout: TimeInterval = 15

    /// The data directory this store lives in.
    public let directory: URL
    /// The database file: `directory/smsgw.sqlite`.
    public let databaseURL: URL

    let backend: StoreBackend
    let logger: Logger
    let lockoutPolicy: LockoutPolicy
    /// Rung after each write transaction this process commits, and on PostgreSQL each one another
    /// node commits while this process listens for them (``CommitSignal``, ``StoreNotices``).
    public let commits = CommitSignal()
    /// The shared ``StoreLock`` held while this SQLite store is open, released when it closes;
    /// nil on PostgreSQL and for a store opened under a restore's exclusive lock.
    let storeLock: StoreLock?
    /// What this process's commit notices carry on PostgreSQL, so that its own listener skips
    /// them (random: it names no node, row or text).
    let commitOrigin = UUID().uuidString
    /// Why this SQLite store can only be read (``ReadOnlyReason``), or nil when it can be written.
    public let readOnly: ReadOnlyReason?

    private init(
        directory: URL, databaseURL: URL, backend: StoreBackend, logger: Logger, lockoutPolicy: LockoutPolicy,
        storeLock: StoreLock? = nil, readOnly: ReadOnlyReason? = nil
    ) {
        self.readOnly = readOnly
        self.directory = directory
        self.databaseURL = databaseURL
        self.backend = backend
        self.logger = logger
        self.lockoutPolicy = lockoutPolicy
        self.storeLock = storeLock
    }

    /// Opens (creating if needed and asked) the gateway database in `directory` and migrates it.
    ///
    /// - Parameters:
    ///   - directory: The data directory; created with mode 0700 when missing.
    ///   - logger: Receives open, migration and lockout events; never key material.
    ///   - creating: Whether a missing store is created; when false (every command but the one
    ///     that creates an account), a data directory without one is left as it is and refused
    ///     with ``StoreError/notFound(_:)`` (``StoreError/Missing/store(directory:)``): on a node
    ///     whose store is on PostgreSQL, a command run without the configuration would otherwise
    ///     make a second, empty store beside it.
    ///
    /// The store holds the data directory's ``StoreLock`` shared until it is closed (or goes
    /// away), so no restore replaces the file under it.
    ///
    /// An existing store that cannot be written (``readOnly``: a file system mounted read-only,
    /// modes this user may not write through) is opened read-only: it reads and backs up, its
    /// writes are refused with ``StoreError/readOnly(directory:reason:)``, and nothing is
    /// created or changed in the data directory (no migration, no modes set).
    ///
    /// - Throws: ``StoreError/inUse(_:)`` while a restore replaces the store;
    ///   ``StoreError/configuration(_:)`` when the directory or file cannot be used
    ///   (another user's, writable by others, a symbolic link in place of a file, a store a copy
    ///   moved elsewhere: ``completeMove(to:at:checking:)``), ``StoreError/database(_:cause:)`` when SQLite fails.
    public static func open(directory: URL, logger: Logger, creating: Bool = true) throws -> GatewayStore {
        try open(directory: directory, logger: logger, lockoutPolicy: .standard, creating: creating)
    }

    /// Opens the store of `directory` for a restore that holds its ``StoreLock`` exclusive
    /// (`lock`), which the store leaves to the restore: as ``open(directory:logger:creating:)``
    /// with `creating` false.
    public static func open(directory: URL, logger: Logger, restoring lock: StoreLock) throws -> GatewayStore {
        try open(directory: directory, logger: logger, lockoutPolicy: .standard, creating: false, restoring: lock)
    }

    /// Whether `directory` surely holds no database file: looking for it found nothing. A path
    /// that cannot be looked at (a directory on the way this user may not search, a file where the
    /// directory should be) is not "no database": opening it says what is wrong with it.
    public static func hasNoDatabase(in directory: URL) -> Bool {
        let path = directory.appendingPathComponent(databaseFileName).path
        guard
            case .success(nil) = Result(catching: { () throws(SystemCallError) in try FileSystem.status(of: path, followingLinks: false) })
        else { return false }
        return true
    }

    static func open(
        directory: URL, logger: Logger, lockoutPolicy: LockoutPolicy, creating: Bool = true, restoring: StoreLock? = nil,
        forcingReadOnly: ReadOnlyReason? = nil
    ) throws -> GatewayStore {
        let directory = directory.standardizedFileURL
        let databaseURL = directory.appendingPathComponent(databaseFileName, isDirectory: false)
        let path = databaseURL.path
        if !creating, hasNoDatabase(in: directory) { throw StoreError.notFound(.store(directory: directory.path)) }
        try FilePermissions.prepareDirectory(directory, logger: logger)
        try FilePermissions.checkFiles(in: directory)
        try refuseIfMoved(directory)
        let readOnly = forcingReadOnly ?? readOnlyReason(directory: directory.path, databasePath: path)
        // Taken before the file is opened and held until it is closed: a restore never renames
        // a file this process could still write to.
        let storeLock = restoring == nil ? try StoreLock.shared(directory: directory, readOnly: readOnly != nil) : nil

        var configuration = Configuration()
        configuration.label = "smsgw.store"
        configuration.foreignKeysEnabled = true
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // Deleted rows (keys, texts) are overwritten with zeros, not left in free pages.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // Statement and savepoint journals stay in memory: with a temporary file, every
            // transaction of several sends (a savepoint each) opened one and wrote pages to it.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }

        if let readOnly {
            let pool = try openingDatabase(path) { try openReadOnlyPool(path: path, configuration: configuration) }
            try refusePendingMigrations(pool, directory: directory.path, reason: readOnly)
            logger.notice("Opened the gateway database read-only.", metadata: [StoreLog.path: "\(path)"])
            return GatewayStore(
                directory: directory, databaseURL: databaseURL, backend: .sqlite(pool), logger: logger,
                lockoutPolicy: lockoutPolicy, storeLock: storeLock, readOnly: readOnly)
        }
        let pool: DatabasePool = try FilePermissions.withPrivateUmask {
            let pool = try openingDatabase(path) { try DatabasePool(path: path, configuration: configuration) }
            try migrate(pool, logger: logger)
            // Touch a reader so the -shm file exists before we fix the modes below.
            _ = try StoreError.wrapping { try pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
            return pool
        }
        try FilePermissions.restrictDatabaseFiles(path)
        logger.debug("Opened the gateway database.", metadata: [StoreLog.path: "\(path)"])
        return GatewayStore(
            directory: directory, databaseURL: databaseURL, backend: .sqlite(pool), logger: logger,
            lockoutPolicy: lockoutPolicy, storeLock: storeLock)
    }

    /// Opens the gateway database on a PostgreSQL server and migrates it.
    ///
    /// - Parameters:
    ///   - address: The server, the database and the credentials.
    ///   - directory: The node's data directory (0700, created when missing): its daemon lock,
    ///     unlock lock and status socket; the database is not in it.
    ///   - logger: Receives open and migration events; never key material or the password.
    /// - Throws: ``StoreError/configuration(_:)`` when the directory cannot be used, the
    ///   database was migrated by a newer smsgw, or TLS cannot be set up;
    ///   ``StoreError/server(_:cause:)`` when the server cannot be reached or refuses.
    public static func open(postgres address: PostgresAddress, directory: URL, logger: Logger) throws -> GatewayStore {
        try open(postgres: address, directory: directory, logger: logger, lockoutPolicy: .standard)
    }

    static func open(
        postgres address: PostgresAddress, directory: URL, logger: Logger, lockoutPolicy: LockoutPolicy
    ) throws -> GatewayStore {
        let directory = directory.standardizedFileURL
        try FilePermissions.prepareDirectory(directory, logger: logger)
        let pool = PostgresPool(try address.connectionConfiguration(), logger: logger)
        try PostgresSchema.migrate(pool, logger: logger)
        try refuseIfMoved(pool, address: address)
        logger.debug("Opened the gateway database.", metadata: [StoreLog.backend: "postgresql", StoreLog.path: "\(address)"])
        return GatewayStore(
            directory: directory, databaseURL: directory.appendingPathComponent(databaseFileName, isDirectory: false),
            backend: .postgresql(pool, address), logger: logger, lockoutPolicy: lockoutPolicy)
    }

    /// The backend's name, `sqlite` or `postgresql`, as `[store] backend` spells it.
    public var backendName: String {
        switch backend {
        case .sqlite: "sqlite"
        case .postgresql: "postgresql"
        }
    }

    /// Where the database is, without any password: the SQLite file's path or the server's URL.
    public var location: String {
        switch backend {
        case .sqlite: databaseURL.path
        case .postgresql(_, let address): address.description
        }
    }

    /// The store as a person names it: `SQLite /var/lib/smsgw/smsgw.sqlite`, or the server's URL
    /// (`postgresql://smsgw@db:5432/smsgw`), which names its backend itself.
    public var named: String {
        switch backend {
        case .sqlite: "SQLite \(databaseURL.path)"
        case .postgresql(_, let address): address.description
        }
    }

    /// Runs `open`, turning SQLite's failure into a sentence about the database at `path`.
    private static func openingDatabase(_ path: String, _ open: () throws -> DatabasePool) throws -> DatabasePool {
        do {
            return try open()
        } catch let error as DatabaseError {
            throw StoreError.configuration(
                "Cannot open the database \(path) (\(error.message ?? "SQLite error \(error.resultCode.rawValue)")); check the data directory and its permissions."
            )
        }
    }

    /// Applies pending migrations; a second process racing on a brand-new file retries once.
    private static func migrate(_ pool: DatabasePool, logger: Logger) throws {
        let migrator = StoreSchema.migrator
        let applied = try StoreError.wrapping { try pool.read { try migrator.appliedIdentifiers($0) } }
        let known = Set(migrator.migrations)
        if !applied.isSubset(of: known) {
            throw StoreError.writtenByNewerVersion
        }
        for identifier in migrator.migrations where !applied.contains(identifier) {
            logger.info("Applying database migration.", metadata: [StoreLog.migration: "\(identifier)"])
        }
        do {
            try migrator.migrate(pool)
        } catch {
            // Another process may have created the same tables between our check and our write.
            try StoreError.wrapping { try migrator.migrate(pool) }
        }
    }

    /// The identifiers of the migrations applied to this database, in order.
    public func appliedMigrations() throws -> [String] {
        switch backend {
        case .sqlite(let pool):
            try StoreError.wrapping { try pool.read { try StoreSchema.migrator.appliedMigrations($0) } }
        case .postgresql(let pool, _):
            try pool.readTransaction(PostgresSchema.appliedMigrations)
        }
    }

    /// Whether an account has been created in this database.
    public var accountExists: Bool {
        get throws {
            try StoreError.wrapping {
                try readTransaction { db in try db.value(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM account)") ?? false }
            }
        }
    }
}

extension StoreError {
    static let writtenByNewerVersion = StoreError.configuration(
        "The database was written by a newer smsgw; upgrade smsgw before using this data directory."
    )
}
