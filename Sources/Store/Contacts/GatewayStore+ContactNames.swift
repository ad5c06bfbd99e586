public import Foundation
import GRDB
import Logging

extension GatewayStore {
    /// The contacts' names in the database of `directory`, sorted, read without unlocking: for
    /// shell completion, which must never prompt for a passphrase.
    ///
    /// Names are stored in the clear (docs/STORAGE.md), so nothing secret is read. The database
    /// is opened read-only and only if it exists: completing a command line never creates a data
    /// directory, runs a migration or waits on a writer for long. Any failure gives no names, and
    /// so does a restore replacing the store (the read holds the ``StoreLock`` shared, like every
    /// process that opens the store, but never creates its file).
    public static func contactNames(inDirectory directory: URL) -> [String] {
        StoreLock.readingIfFree(directory: directory) { readContactNames(inDirectory: directory) } ?? []
    }

    private static func readContactNames(inDirectory directory: URL) -> [String] {
        let path = directory.appendingPathComponent(databaseFileName, isDirectory: false).path
        guard FileManager.default.isReadableFile(atPath: path) else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "smsgw.completion"
        configuration.busyMode = .timeout(1)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Opening a read-only queue is SQLite's; the statement is the store's, as everywhere.
            return try queue.read { connection in
                try StoreDatabase(GRDBConnection(connection)).values(String.self, sql: "SELECT name FROM contacts ORDER BY name_key")
            }
        } catch {
            return []
        }
    }

    /// The contacts' names in the PostgreSQL database at `address`, sorted, read without
    /// unlocking, for shell completion as ``contactNames(inDirectory:)``: one connection, made
    /// within 2 s, one read, closed. A server that cannot be reached in time, or any other
    /// failure, gives no names; nothing is logged, as the shell owns the terminal.
    public static func contactNames(postgres address: PostgresAddress) -> [String] {
        do {
            var configuration = try address.connectionConfiguration()
            configuration.options.connectTimeout = .seconds(2)
            let server = try PostgresServer.connect(
                configuration, logger: Logger(label: "smsgw.completion") { _ in SwiftLogNoOpLogHandler() })
            defer { try? server.close() }
            return try server.readTransaction { db in try db.values(String.self, sql: "SELECT name FROM contacts ORDER BY name_key") }
        } catch {
            return []
        }
    }
}
