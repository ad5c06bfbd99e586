import Foundation
import GRDB

/// This store held against writes while a copy of it runs and its move is recorded
/// (``GatewayStore/holdingWrites(_:)``).
///
/// A key state stepped on the source after the copier read it would be a step the target does
/// not know, and the target would use that pad again. The hold keeps every such step waiting
/// until the record of the move is there; once let in, the step finds the record and is refused
/// (``GatewayStore/refuseIfMoved(within:)``), or its wait runs out and it is refused as busy.
public final class WriteHold {
    /// The hold's own transaction on PostgreSQL, where the move is recorded; nil on SQLite.
    let db: StoreDatabase?
    /// Whether the target is complete and the record is being written: a failure from here on
    /// says so (the copy need not run again, the old store must be kept out of use).
    var recording = false

    init(db: StoreDatabase?) {
        self.db = db
    }
}

extension GatewayStore {
    /// Runs `body` (a copy of this store, then ``completeMove(to:holding:at:checking:)``) while
    /// every write of this store, this process's too, waits, and plain reads go on (the copier's).
    ///
    /// - SQLite: an IMMEDIATE transaction on a connection of its own, open for the whole of
    ///   `body` and ended after the record (a file) was written; writers wait up to the busy
    ///   timeout, then are refused as busy.
    /// - PostgreSQL: a transaction of its own holding the store's write lock exclusively
    ///   (``PostgresPool/writeLock``, until it ends), which every write transaction of the store
    ///   takes before it begins (``PostgresServer/lockedWriteTransaction(lock:scope:_:)``), shared
    ///   or exclusive, and plain reads do not take; it waits for the writers under way, and the
    ///   record is written in it and committed with it, so a writer let in afterwards takes its
    ///   snapshot after the record and sees it. Writers wait as for any whole-database writer,
    ///   up to the busy timeout.
    ///
    /// - Throws: What `body` throws, a database's error as a ``StoreError``;
    ///   ``StoreError/configuration(_:)`` when the record could not be committed after the target
    ///   was complete; the backends' errors.
    public func holdingWrites<T>(_ body: (WriteHold) throws -> T) throws -> T {
        try refuseIfReadOnly()
        switch backend {
        case .sqlite:
            var configuration = Configuration()
            configuration.label = "smsgw.store.hold"
            configuration.busyMode = .timeout(Self.busyTimeout)
            // Every SQLite error of the hold comes back as a StoreError, as on PostgreSQL: its
            // connection's and those of `body`'s reads of this store (the nodes' check).
            return try StoreError.wrapping {
                let queue = try DatabaseQueue(path: databaseURL.path, configuration: configuration)
                defer { try? queue.close() }
                return try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    defer { try? db.execute(sql: "ROLLBACK") }
                    return try body(WriteHold(db: nil))
                }
            }
        case .postgresql(let pool, let address):
            var hold: WriteHold?
            do {
                let result = try StoreError.wrapping {
                    try pool.withServer { server in
                        try server.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { db in
                            try db.execute(sql: "SELECT pg_advisory_xact_lock(?)", arguments: [PostgresPool.writeLock])
                            let held = WriteHold(db: db)
                            hold = held
                            return try body(held)
                        }
                    }
                }
                if hold?.recording == true {
                    logger.notice(
                        "Recorded that the PostgreSQL store was moved; it is an old copy from now on.",
                        metadata: [StoreLog.path: "\(address)"])
                }
                return result
            } catch let error where hold?.recording == true {
                throw StoreError.configuration(
                    "The store was copied, but the old PostgreSQL store \(address) could not record it (\(error)); keep every node and command off it until their configuration names the new one, and run the same migration again before the new store is used: it finds the copy complete and records the move."
                )
            }
        }
    }
}
