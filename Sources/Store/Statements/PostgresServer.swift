import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// A PostgreSQL database the store runs its transactions on, over one connection.
///
/// Write transactions are `SERIALIZABLE`: SQLite's IMMEDIATE transactions let one writer at a
/// time read and write, and every transaction of the store was written on that promise (read a
/// ratchet state, then save the next; read the largest claim sequence, then add one).
/// Serialisable isolation keeps that promise for every one of them without a lock in each; a
/// transaction that would break it fails with a serialisation error, reported as busy
/// (``StoreError/server(_:cause:)``), as SQLite's busy timeout is. The store's own writes also
/// take locks before they begin (``lockedWriteTransaction(lock:scope:_:)``, from
/// ``PostgresPool``), so they wait for each other instead of failing and running again: the
/// whole database's, or only the contacts' they step (``WriteScope``), so that contacts advance
/// in parallel on several nodes. Reads are `REPEATABLE READ READ ONLY`: one snapshot,
/// like a SQLite read transaction.
///
/// Statements wait for their answers off the event loop (see ``PostgresStatements``); one
/// transaction at a time runs on the connection.
final class PostgresServer: Sendable {
    private let connection: PostgresConnection
    private let answers: PostgresAnswerWait
    private let logger: Logger
    private let turn = Mutex(())

    private init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        answers = PostgresAnswerWait(connection)
        self.logger = logger
    }

    // postgres-nio traps when a connection goes unclosed: the close's callback holds it until
    // the channel is closed.
    deinit {
        let connection = connection
        if !connection.isClosed { connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
    }

    /// Connects to the server, over TCP with keepalive (``PostgresKeepalive``); the password comes
    /// from the caller, never from a file in the configuration.
    static func connect(_ configuration: PostgresConnection.Configuration, logger: Logger) throws -> PostgresServer {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let connection: PostgresConnection
        do {
            connection = try PostgresKeepalive.connect(configuration, id: 1, logger: logger, on: eventLoop).wait()
        } catch {
            throw StoreError(connectingFailed: error)
        }
        let server = PostgresServer(connection: connection, logger: logger)
        // A wait for a lock ends as SQLite's busy timeout does: busy, after the same time.
        try server.transaction("BEGIN") { db in
            try db.execute(sql: "SET lock_timeout = \(Int(GatewayStore.busyTimeout * 1000))")
        }
        return server
    }

    /// Connects on the server's unix socket in `socketDirectory` (`.s.PGSQL.<port>`).
    static func connect(
        socketDirectory: String, port: Int, user: String, password: String?, database: String, logger: Logger
    ) throws -> PostgresServer {
        try connect(
            PostgresConnection.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password,
                database: database),
            logger: logger)
    }

    /// Connects over TCP without TLS: for a server on the loopback interface only.
    static func connect(
        loopbackPort port: Int, user: String, password: String?, database: String, logger: Logger
    ) throws -> PostgresServer {
        try connect(
            PostgresConnection.Configuration(
                host: "127.0.0.1", port: port, username: user, password: password, database: database, tls: .disable),
            logger: logger)
    }

    /// The connection's statements for one transaction.
    private func statements() -> StoreDatabase {
        StoreDatabase(PostgresStatements(connection, answers: answers, logger: logger))
    }

    /// Closes the connection; the server is unusable afterwards.
    func close() throws {
        try Self.wrapping { try connection.close().wait() }
    }

    /// Runs `body` in one serialisable transaction and commits if it returns; throwing rolls
    /// back and rethrows. ``PostgresStatementTests`` use it to meet a serialisation failure.
    func writeTransaction<T>(_ body: (StoreDatabase) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL SERIALIZABLE", body)
    }

    /// Runs `body` on one consistent snapshot, read-only.
    func readTransaction<T>(_ body: (StoreDatabase) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// How many statements this connection ran.
    var statementCount: Int { answers.count }

    /// Whether the connection is closed (the server went away or closed it): the pool drops it.
    var isClosed: Bool { connection.isClosed }

    /// ``writeTransaction(_:)`` holding the store's advisory lock `lock` and the locks of the
    /// contacts in `scope` from before it begins until after it ends (see ``WriteScope``): every
    /// transaction whose locks conflict waits for this one, as SQLite's IMMEDIATE transactions
    /// wait for each other, and its snapshot is taken only once the locks are held (a lock taken
    /// inside a serialisable transaction would come after its snapshot). The locks are the
    /// session's: a connection that dies releases them. A copy's hold of the store holds `lock`
    /// exclusively (``GatewayStore/holdingWrites(_:)``): the lock statement waits for it like for
    /// any whole-database writer, so the snapshot comes after the hold's commit and sees its
    /// record of the move, at no statement of its own.
    func lockedWriteTransaction<T>(lock: Int64, scope: WriteScope, _ body: (StoreDatabase) throws -> T) throws -> T {
        try turn.withLock { _ in
            let database = statements()
            defer {
                do {
                    try database.execute(sql: "SELECT pg_advisory_unlock_all()")
                } catch {
                    // A lock left held would stop other writers: drop the connection.
                    connection.close().whenComplete { _ in }
                }
            }
            // One round trip for every lock, the contacts' lookup included; it also waits out a
            // copy's hold of the store.
            let locks = scope.lockStatement(storeLock: lock)
            try database.execute(sql: locks.sql, arguments: locks.arguments)
            return try run("BEGIN ISOLATION LEVEL SERIALIZABLE", database, body)
        }
    }

    /// Holds the session advisory lock `key` while `body` runs, outside any transaction of this
    /// connection (the caller keeps the connection to itself meanwhile). The wait has no time
    /// limit, as a `flock`'s has none: the lock is held for an unlock's Argon2, and several nodes
    /// unlocking at once wait for each other's; a node that dies holding it drops it with its
    /// session.
    func withSessionLock<T>(_ key: Int64, _ body: () throws -> T) throws -> T {
        // A session's lock outlives the transaction it was taken in; the wait's time limit does not.
        try transaction("BEGIN") { db in
            try db.execute(sql: "SET LOCAL lock_timeout = 0")
            try db.execute(sql: "SELECT pg_advisory_lock(?)", arguments: [key])
        }
        let database = statements()
        defer {
            do {
                try turn.withLock { _ in try database.execute(sql: "SELECT pg_advisory_unlock(?)", arguments: [key]) }
            } catch {
                // A lock left held would stop every other unlock: drop the connection, and the lock with it.
                connection.close().whenComplete { _ in }
            }
        }
        return try body()
    }

    /// Runs `body` in one transaction started by `begin` (a `BEGIN …` statement) and commits if
    /// it returns; throwing rolls back and rethrows.
    func transaction<T>(_ begin: String, _ body: (StoreDatabase) throws -> T) throws -> T {
        try turn.withLock { _ in
            try run(begin, statements(), body)
        }
    }

    private func run<T>(_ begin: String, _ database: StoreDatabase, _ body: (StoreDatabase) throws -> T) throws -> T {
        try database.execute(sql: begin)
        let result: T
        do {
            result = try body(database)
        } catch {
            try? database.execute(sql: "ROLLBACK")
            throw error
        }
        try database.execute(sql: "COMMIT")
        return result
    }

    /// Runs `body`, turning the server's errors into ``StoreError/server(_:cause:)``: the
    /// server's message and SQLSTATE only, never the statement or its arguments (postgres-nio's
    /// own description of an error leaves them out too). The SQLSTATE gives the cause
    /// (``StoreError/Cause/postgres(sqlState:)``): a serialisation failure, a deadlock or a lock
    /// not available is busy (trying again can succeed); an error without one is a connection
    /// that failed.
    static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PSQLError {
            let state = error.serverInfo?[.sqlState]
            let message = serverWords(error) ?? "PostgreSQL connection error (\(error.code))"
            throw StoreError.server(message, cause: .postgres(sqlState: state))
        }
    }

    /// The server's message with its SQLSTATE (`terminating connection due to administrator
    /// command (SQLSTATE 57P01)`), or nil when the error did not come from the server.
    static func serverWords(_ error: PSQLError) -> String? {
        guard let message = error.serverInfo?[.message] else { return nil }
        return error.serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
    }
}
