import Dispatch
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// A few connections to one PostgreSQL database, lent to one transaction at a time.
///
/// The store's transactions are synchronous closures run on the caller's thread (as on
/// SQLite), so the pool is too: a caller waits for a free connection on a semaphore, never on
/// an event loop. postgres-nio's `PostgresClient` pools asynchronously and runs as a service;
/// bridging each synchronous transaction into it would take a task and a wait per call, for
/// nothing this pool does not already do. A connection the server closed is dropped when it
/// comes back, and the next transaction connects afresh.
///
/// Write transactions wait for each other on advisory locks (up to SQLite's busy timeout): on
/// the whole database's, or, scoped to contacts, only on those contacts' (``WriteScope``). One that still fails as busy (a serialisation failure or a
/// deadlock with a writer that does not take the lock, or the lock's wait timing out) runs again
/// from the start, a bounded number of times; `body` must therefore do nothing outside the
/// transaction that a second run would repeat.
final class PostgresPool: Sendable {
    /// How many connections one process keeps at most.
    static let defaultCapacity = 4
    /// How many times a busy transaction runs in all before its error is returned.
    static let busyAttempts = 8

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let slots: DispatchSemaphore
    private let idle = Mutex<[PostgresServer]>([])
    private let statements = Atomic(0)

    /// How many statements this pool's connections ran, each one round trip: what a change to
    /// the statements of a transaction is measured by.
    var statementCount: Int { statements.load(ordering: .relaxed) }

    init(_ configuration: PostgresConnection.Configuration, capacity: Int = defaultCapacity, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        slots = DispatchSemaphore(value: capacity)
    }

    /// The advisory lock every write transaction of the store holds: exclusively over the whole
    /// database (one writer at a time, as on SQLite), shared beside contacts' own locks (see
    /// ``PostgresServer/lockedWriteTransaction(lock:scope:_:)``).
    static let writeLock: Int64 = 0x736d_7367_7700_0002

    /// The advisory lock an unlock holds across nodes, beside its node's ``UnlockLock``
    /// (``GatewayStore/withUnlockLock(_:)``).
    static let unlockLock: Int64 = 0x736d_7367_7700_0075

    /// Runs `body` while one connection of the pool, held throughout, holds the session advisory
    /// lock `key`: other nodes (and other connections) taking it wait until `body` returns.
    /// `body`'s own transactions run on the pool's other connections.
    func withSessionLock<T>(_ key: Int64, _ body: () throws -> T) throws -> T {
        try withServer { server in try server.withSessionLock(key, body) }
    }

    /// Runs `body` in one serialisable write transaction under the locks of `scope`, again while
    /// it fails as busy.
    func writeTransaction<T>(_ scope: WriteScope = .database, _ body: (StoreDatabase) throws -> T) throws -> T {
        try retryingBusy {
            try withServer { server in try server.lockedWriteTransaction(lock: Self.writeLock, scope: scope, body) }
        }
    }

    /// Runs `body` on one consistent read-only snapshot.
    func readTransaction<T>(_ body: (StoreDatabase) throws -> T) throws -> T {
        try retryingBusy { try withServer { server in try server.readTransaction(body) } }
    }

    /// Runs `body` with a connection of its own, returned to the pool afterwards.
    func withServer<T>(_ body: (PostgresServer) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        // An idle connection the server closed meanwhile (a restart, a failover) is dropped here
        // rather than failing the transaction it would be lent to.
        let reused = idle.withLock { servers in
            while let server = servers.popLast() { if !server.isClosed { return Optional(server) } }
            return nil
        }
        let server = try reused ?? PostgresServer.connect(configuration, logger: logger)
        let counted = server.statementCount
        defer {
            statements.add(server.statementCount - counted, ordering: .relaxed)
            if server.isClosed {
                logger.notice("A PostgreSQL connection closed; the next transaction opens a new one.")
            } else {
                idle.withLock { $0.append(server) }
            }
        }
        return try body(server)
    }

    /// Closes every idle connection; the pool opens new ones if it is used again.
    func close() {
        let servers = idle.withLock { servers in
            defer { servers.removeAll() }
            return servers
        }
        for server in servers { try? server.close() }
    }

    private func retryingBusy<T>(_ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch StoreError.server(let message, cause: .busy) where attempt < Self.busyAttempts {
                logger.debug("A PostgreSQL transaction met another; running it again.", metadata: [StoreLog.reason: "\(message)"])
                // Up to 2^attempt milliseconds, at random, so two nodes that met do not meet again.
                Thread.sleep(forTimeInterval: Double.random(in: 0...Double(1 << attempt)) / 1000)
                attempt += 1
            }
        }
    }
}
