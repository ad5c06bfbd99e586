public import Foundation
import SystemCalls

/// A store whose contents were copied to another store, which the gateway runs from now.
///
/// The copy leaves the old store in place (`smsgw.sqlite`, or the PostgreSQL database), kept
/// unused for a while: its key states stop at the copy. A command or node that opened it
/// afterwards (one run without the configuration that names the new store) would queue a
/// message no daemon sends and step a ratchet that is already further on in the new store,
/// which could send a pad the new store sends again. A record of the move (a file beside a
/// SQLite store, a table in a PostgreSQL one) makes every later open of the old store refused.
extension GatewayStore {
    /// The file in the data directory that records where its SQLite store was moved.
    public static let movedMarkerFileName = "smsgw.sqlite.moved"

    /// The longest line of the record that an error quotes.
    private static let movedRecordLimit = 300

    /// The table of a PostgreSQL store that records where it was moved: bookkeeping, like the
    /// migrations' table, never copied.
    static let movedTable = "store_moved"

    /// Records that this store was copied to `target` and is an old copy from now on: later opens
    /// of it are refused (``refuseIfMoved(_:)``, ``refuseIfMoved(_:address:)``). A SQLite store's
    /// record is a file in its data directory; a PostgreSQL store's, a row of ``movedTable``.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when the record cannot be written.
    public func markMoved(to target: GatewayStore, at now: Date = Date()) throws {
        let when = ISO8601DateFormatter().string(from: now)
        let record = "Copied to \(target.named) at \(when).\n"
        guard case .postgresql(let pool, let address) = backend else { return try markMovedFile(record) }
        do {
            try pool.withServer { server in
                try server.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { db in
                    try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.movedTable) (record TEXT NOT NULL)")
                    try db.execute(sql: "DELETE FROM \(Self.movedTable)")
                    try db.execute(sql: "INSERT INTO \(Self.movedTable) (record) VALUES (?)", arguments: [record])
                }
            }
        } catch {
            throw StoreError.configuration(
                "The store was copied, but the old PostgreSQL store \(address) could not record it (\(error)); keep every node and command off it until their configuration names the new one."
            )
        }
        logger.notice(
            "Recorded that the PostgreSQL store was moved; it is an old copy from now on.", metadata: [StoreLog.path: "\(address)"])
    }

    /// Refuses the PostgreSQL store `pool` reaches when a copy moved it (``movedTable`` holds a record).
    static func refuseIfMoved(_ pool: PostgresPool, address: PostgresAddress) throws {
        let record = try pool.withServer { server in
            try server.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { db -> String? in
                guard try db.value(String.self, sql: "SELECT to_regclass(?)::text", arguments: [movedTable]) != nil else { return nil }
                return try db.value(String.self, sql: "SELECT record FROM \(movedTable) LIMIT 1")
            }
        }
        guard let record else { return }
        throw StoreError.configuration(
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
                "The store was copied, but \(path) could not be written (\(error.reason)); keep every command off the old store \(databaseURL.path) until the configuration names the new one."
            )
        }
        logger.notice("Recorded that the SQLite store was moved; it is an old copy from now on.", metadata: [StoreLog.path: "\(path)"])
    }

    /// Refuses the SQLite store in `directory` when a copy moved it (the record is there).
    static func refuseIfMoved(_ directory: URL) throws(StoreError) {
        let path = directory.appendingPathComponent(movedMarkerFileName).path
        guard (try? FileSystem.status(of: path, followingLinks: false)) != nil else { return }
        let record = (try? String(contentsOfFile: path, encoding: .utf8)).map(printable) ?? "Moved."
        throw .configuration(
            "The SQLite store in \(directory.path) is an old copy: \(record) Open the store it was moved to: name the configuration file whose [store] table points there in SMSGW_CONFIG (or set the SMSGW_STORE_ variables); sending from the old copy would step keys the new store has already used. To use the old copy anyway, remove \(path)."
        )
    }
}
