public import Foundation
import GRDB

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
}
