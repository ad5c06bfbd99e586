public import Foundation
import SystemCalls

/// A store whose contents were copied to another store, which the gateway runs from now.
///
/// The copy leaves the old store in place (`smsgw.sqlite`, or the PostgreSQL database), kept
/// unused for a while: its key states stop at the copy. A command or node that opened it
/// afterwards (one run without the configuration that names the new store) would queue a
/// message no daemon sends and step a ratchet that is already further on in the new store,
/// which could send a pad the new store sends again. A record of the move (a file beside a
/// SQLite store, a table in a PostgreSQL one) makes every later open of the old store refused,
/// and a daemon still running on it stops at its next heartbeat (``movedRefusal()``).
extension GatewayStore {
    /// The file in the data directory that records where its SQLite store was moved.
    public static let movedMarkerFileName = "smsgw.sqlite.moved"

    /// The longest line of the record that an error quotes.
    private static let movedRecordLimit = 300

    /// The table of a PostgreSQL store that records where it was moved: bookkeeping, like the
    /// migrations' table, never copied, and made (empty) by every open (``PostgresSchema``), so
    /// that looking for the record is one query.
    static let movedTable = "store_moved"

    /// Completes a copy of this store into `target` and records that this store moved there,
    /// holding this store's writes meanwhile (``holdingWrites(_:)``); see
    /// ``completeMove(to:holding:at:checking:)``.
    public func completeMove(to target: GatewayStore, at now: Date = Date(), checking check: ([NodeRecord]) throws -> Void) throws {
        try holdingWrites { hold in try completeMove(to: target, holding: hold, at: now, checking: check) }
    }

    /// Completes a copy of this store into `target` and records that this store moved there,
    /// inside `hold` (which keeps every write of this store waiting until the record is there):
    /// `check` is given every node of this store and may refuse (throwing); then the copy's
    /// last step (``finishCopy(to:)``) runs and the record is written (``refuseIfMoved(_:)``,
    /// ``refuseIfMoved(_:address:)`` refuse later opens of this store, ``refuseIfMoved(within:)``
    /// every later step of a key state by a store opened before).
    ///
    /// On PostgreSQL all three happen in the hold's transaction, which also holds the `nodes`
    /// table against writes: a node starting (or beating) meanwhile waits until the record is
    /// committed and then finds it (a starting daemon looks for it after claiming its row, see
    /// ``movedRefusal()``), or wrote its row before the check, which then sees it. A refusal
    /// leaves this store untouched and the target incomplete, so a copy run again resumes it.
    /// A SQLite store, the data directory's own, takes no node that the copy's daemon lock
    /// does not keep out; its record is a file, written while the hold's transaction is open.
    ///
    /// - Throws: What `check` throws; ``StoreError/configuration(_:)`` when the record cannot
    ///   be written (the target is then complete); the backends' errors.
    public func completeMove(
        to target: GatewayStore, holding hold: WriteHold, at now: Date = Date(), checking check: ([NodeRecord]) throws -> Void
    ) throws {
        let when = ISO8601DateFormatter().string(from: now)
        let record = "Copied to \(target.named) at \(when).\n"
        guard let db = hold.db else {
            try check(try readTransaction(NodeRecord.all(in:)))
            try finishCopy(to: target)
            return try markMovedFile(record)
        }
        try StoreError.wrapping {
            // Until the commit, a node's start or heartbeat (each writes its row) waits.
            try db.execute(sql: "LOCK TABLE nodes IN SHARE ROW EXCLUSIVE MODE")
            try check(try NodeRecord.all(in: db))
            try finishCopy(to: target)
            hold.recording = true
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.movedTable) (record TEXT NOT NULL)")
            try db.execute(sql: "DELETE FROM \(Self.movedTable)")
            try db.execute(sql: "INSERT INTO \(Self.movedTable) (record) VALUES (?)", arguments: [record])
        }
    }

    /// Refuses a write transaction `db` of this store, open already, when a copy moved the store
    /// (the record made by ``completeMove(to:holding:at:checking:)``, or by hand): the refusal an
    /// open would throw. Asked by every step of a contact's key state, once the contact's lock
    /// is held; on SQLite one look for the file, on PostgreSQL one query of ``movedTable`` in
    /// `db` itself, whose snapshot is taken after the hold of a copy under way ended
    /// (``holdingWrites(_:)``).
    ///
    /// - Throws: ``StoreError/configuration(_:)``; the server's errors.
    func refuseIfMoved(within db: StoreDatabase) throws {
        switch backend {
        case .sqlite: try Self.refuseIfMoved(directory)
        case .postgresql(_, let address):
            let record: String?
            do {
                record = try Self.movedRecord(db)
            } catch let error as StoreError where Self.isMissingTable(error) {
                // The transaction is aborted: no statement can make the table again in it.
                throw StoreError.configuration(
                    "The PostgreSQL store \(address) has lost its table \(Self.movedTable), which records whether a copy moved the store: it was dropped while this process had the store open. Try again: the store makes the table again, empty (not moved), when a command opens it and at a daemon's next heartbeat."
                )
            }
            if let record { throw Self.movedRefusal(address: address, record: record) }
        }
    }

    /// Whether `error` is the server's "relation does not exist" (SQLSTATE 42P01): ``movedTable``
    /// dropped by hand after this process's open made it.
    private static func isMissingTable(_ error: StoreError) -> Bool {
        guard case .server(let message, _) = error else { return false }
        return message.hasSuffix("(SQLSTATE 42P01)")
    }

    /// Why this store, open already, is refused now: a copy moved it since it was opened (a
    /// migration run elsewhere, or the record made by hand). A running daemon asks at each
    /// heartbeat, and once after claiming its node.
    ///
    /// - Returns: The refusal an open would throw now (``StoreError/configuration(_:)``), or nil.
    /// - Throws: The server's errors when the record cannot be looked for.
    public func movedRefusal() throws -> StoreError? {
        switch backend {
        case .sqlite: Self.movedRefusal(directory)
        case .postgresql(let pool, let address): try StoreError.wrapping { try Self.movedRefusal(pool, address: address) }
        }
    }

    /// Refuses the PostgreSQL store `pool` reaches when a copy moved it (``movedTable`` holds a record).
    static func refuseIfMoved(_ pool: PostgresPool, address: PostgresAddress) throws {
        if let refusal = try movedRefusal(pool, address: address) { throw refusal }
    }

    /// The refusal of the PostgreSQL store `pool` reaches when a copy moved it, else nil.
    /// A table dropped by hand (to use the old copy anyway) is made again, empty.
    static func movedRefusal(_ pool: PostgresPool, address: PostgresAddress) throws -> StoreError? {
        let record = try pool.withServer { server in
            do {
                return try server.transaction("BEGIN ISOLATION LEVEL READ COMMITTED", movedRecord)
            } catch let error as StoreError where isMissingTable(error) {
                try server.transaction("BEGIN") { db in
                    try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(movedTable) (record TEXT NOT NULL)")
                }
                return nil
            }
        }
        return record.map { movedRefusal(address: address, record: $0) }
    }

    /// The record of a move that `db`, a transaction of a PostgreSQL store opened by this
    /// process (whose open made ``movedTable``), sees, or nil.
    private static func movedRecord(_ db: StoreDatabase) throws -> String? {
        try db.value(String.self, sql: "SELECT record FROM \(movedTable) LIMIT 1")
    }

    private static func movedRefusal(address: PostgresAddress, record: String) -> StoreError {
        StoreError.configuration(
            "The PostgreSQL store \(address) is an old copy: \(printable(record)) Open the store it was moved to: name the configuration file whose [store] table points there in SMSGW_CONFIG (or set the SMSGW_STORE_ variables); sending from the old copy would step keys the new store has already used. To use the old copy anyway, drop its table \(movedTable)."
        )
    }

    /// The record's first line without control characters, at most ``movedRecordLimit`` long.
    private static func printable(_ record: String) -> String {
        record.split(separator: "\n").first.map { line in
            String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(movedRecordLimit))
        } ?? "Moved."
    }

    /// Writes the SQLite store's record beside it.
    private func markMovedFile(_ record: String) throws {
        let path = directory.appendingPathComponent(Self.movedMarkerFileName).path
        do throws(SystemCallError) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: FilePermissions.fileMode)
            try file.setMode(FilePermissions.fileMode)
            try file.writeAll(Array(record.utf8))
            try file.sync()
        } catch {
            throw StoreError.configuration(
                "The store was copied, but \(path) could not be written (\(error.reason)); keep every command off the old store \(databaseURL.path) until the configuration names the new one, and run the same migration again before the new store is used: it finds the copy complete and records the move."
            )
        }
        logger.notice("Recorded that the SQLite store was moved; it is an old copy from now on.", metadata: [StoreLog.path: "\(path)"])
    }

    /// Refuses the SQLite store in `directory` when a copy moved it (the record is there).
    static func refuseIfMoved(_ directory: URL) throws(StoreError) {
        if let refusal = movedRefusal(directory) { throw refusal }
    }

    /// The refusal of the SQLite store in `directory` when a copy moved it, else nil.
    static func movedRefusal(_ directory: URL) -> StoreError? {
        let path = directory.appendingPathComponent(movedMarkerFileName).path
        guard (try? FileSystem.status(of: path, followingLinks: false)) != nil else { return nil }
        let record = (try? String(contentsOfFile: path, encoding: .utf8)).map(printable) ?? "Moved."
        return .configuration(
            "The SQLite store in \(directory.path) is an old copy: \(record) Open the store it was moved to: name the configuration file whose [store] table points there in SMSGW_CONFIG (or set the SMSGW_STORE_ variables); sending from the old copy would step keys the new store has already used. To use the old copy anyway, remove \(path)."
        )
    }
}
