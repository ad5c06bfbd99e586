public import Foundation
public import Logging
public import Store

/// What ``DatabaseBackup/write(dataDirectory:to:logger:)`` copied.
public struct BackupOutcome: Sendable, Hashable {
    /// The database that was copied.
    public var source: URL
    /// The complete copy.
    public var destination: URL
    /// Why the database could only be read (the copy is complete all the same), or nil.
    public var readOnly: ReadOnlyReason?
}

/// A consistent copy of the database, safe while the daemon runs, with no passphrase: every
/// secret in it stays encrypted under the passphrase.
public enum DatabaseBackup {
    /// Copies the database of `dataDirectory` to `destination` (mode 0600, SQLite's online
    /// backup: one snapshot, complete in one file), under a hidden name first and `destination`
    /// only once complete. An existing file is never overwritten.
    ///
    /// - Throws: ``MaintenanceError/noDatabase(path:)`` when the data directory has no database
    ///   (opening one would create an empty store, with nothing to back up); the store's
    ///   ``StoreError/alreadyExists(_:)`` when `destination` exists and
    ///   ``StoreError/configuration(_:)`` when it cannot be created.
    public static func write(dataDirectory: URL, to destination: URL, logger: Logger) throws -> BackupOutcome {
        let database = dataDirectory.appendingPathComponent(GatewayStore.databaseFileName)
        if GatewayStore.hasNoDatabase(in: dataDirectory) { throw MaintenanceError.noDatabase(path: database.path) }
        return try write(try GatewayStore.open(directory: dataDirectory, logger: logger), to: destination)
    }

    /// Copies an open store to `destination` as ``write(dataDirectory:to:logger:)`` does.
    ///
    /// - Throws: the store's ``StoreError/invalidState(_:)`` on PostgreSQL, whose backups are
    ///   the server's (`pg_dump`); otherwise as ``write(dataDirectory:to:logger:)``.
    public static func write(_ store: GatewayStore, to destination: URL) throws -> BackupOutcome {
        try store.backup(to: destination)
        return BackupOutcome(source: store.databaseURL, destination: destination, readOnly: store.readOnly)
    }
}
