import GRDB

/// The database a ``GatewayStore`` runs on, and what each backend does where they differ.
///
/// Every statement is the same on both (``StoreDatabase``); what is not a statement differs:
///
/// | | SQLite | PostgreSQL |
/// |---|---|---|
/// | transactions | GRDB's pool: IMMEDIATE writes, snapshot reads | ``PostgresPool``: serialisable writes under the database's or their contacts' locks (``WriteScope``), retried while busy; repeatable-read reads |
/// | migrations | GRDB's migrator, `grdb_migrations` | ``PostgresSchema``, `store_migrations`, under an advisory lock |
/// | backup | SQLite's online backup to a 0600 file | refused: the server's own (`pg_dump`, base backups) |
/// | WAL checkpoint | truncates the `-wal` after deletions | nothing: the server's WAL and VACUUM are its own |
/// | file permissions | the database files 0600 | no database files; the data directory (0700) still holds the locks and the status socket |
/// | daemon lock | a file in the data directory | the same file: per node, not across nodes |
/// | unlock lock | a file in the data directory | the same file, and a session advisory lock on the database across nodes (``withUnlockLock(_:)``) |
enum StoreBackend: Sendable {
    case sqlite(DatabasePool)
    case postgresql(PostgresPool, PostgresAddress)
}

extension GatewayStore {
    /// Runs `body` in one write transaction and commits if it returns; throwing rolls back and
    /// rethrows. On SQLite an IMMEDIATE transaction: a second process's write waits (up to the
    /// busy timeout) until this one commits. On PostgreSQL a serialisable one under the locks of
    /// `scope`, run again while it fails as busy (see ``PostgresPool``, ``WriteScope``), which
    /// notifies the other nodes as it commits (``StoreNotices``). A commit rings ``commits``. A
    /// read-only store refuses it (``StoreError/readOnly(directory:reason:)``) before `body` runs.
    func writeTransaction<T>(_ scope: WriteScope = .database, _ body: (StoreDatabase) throws -> T) throws -> T {
        try refuseIfReadOnly()
        let result: T =
            switch backend {
            case .sqlite(let pool):
                try pool.writeWithoutTransaction { db in
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try body(StoreDatabase(GRDBConnection(db)))
                        return .commit
                    }
                    return result!
                }
            case .postgresql(let pool, _):
                try pool.writeTransaction(scope) { db in
                    let result = try body(db)
                    try db.notifyCommit(origin: commitOrigin)
                    return result
                }
            }
        commits.ring()
        return result
    }

    /// Runs `body` on a consistent read-only snapshot of the database.
    func readTransaction<T>(_ body: (StoreDatabase) throws -> T) throws -> T {
        switch backend {
        case .sqlite(let pool): try pool.read { db in try body(StoreDatabase(GRDBConnection(db))) }
        case .postgresql(let pool, _): try pool.readTransaction(body)
        }
    }
}

extension GatewayStore {
    /// How many statements this process's PostgreSQL connections to the store ran, each one
    /// round trip (the opening of a connection not counted); nil on SQLite, whose statements
    /// are calls.
    var postgresStatementCount: Int? {
        switch backend {
        case .sqlite: nil
        case .postgresql(let pool, _): pool.statementCount
        }
    }
}
