import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the data directory private (0700) and the database files private (0600).
///
/// SQLite creates `-wal` and `-shm` with the mode of the database file, so a private database
/// file keeps its side files private even when another process recreates them later.
enum FilePermissions {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600
    /// The process umask while the store creates files: nothing for group or others.
    static let creationMask: mode_t = 0o077

    /// Creates `directory` with mode 0700 if it is missing; warns when an existing one is open to others.
    static func prepareDirectory(_ directory: URL, logger: Logger) throws(StoreError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .configuration("The data directory \(path) is a file; choose a directory with --data-dir.")
            }
            if let mode = self.mode(of: path), mode & 0o077 != 0 {
                logger.warning(
                    "The data directory is readable by other users; consider chmod 700.",
                    metadata: [LogKey.path: "\(path)", LogKey.mode: "\(String(mode, radix: 8))"]
                )
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: Int(directoryMode)]
            )
        } catch {
            throw .configuration("Cannot create the data directory \(path); check its parent's permissions or choose another --data-dir.")
        }
        // createDirectory applies the umask on some platforms; set the mode explicitly.
        _ = chmod(path, directoryMode)
    }

    /// Runs `body` with umask 077 so files it creates start private, then restores the old mask.
    ///
    /// The umask is process-wide; the window is as short as opening the database.
    static func withPrivateUmask<T>(_ body: () throws -> T) rethrows -> T {
        // Serialized so two stores opening at once cannot restore each other's mask.
        try umaskLock.withLock {
            let previous = umask(creationMask)
            defer { umask(previous) }
            return try body()
        }
    }

    private static let umaskLock = NSLock()

    /// Sets mode 0600 on the database and whichever side files exist.
    static func restrictDatabaseFiles(_ databasePath: String) throws(StoreError) {
        for path in [databasePath, databasePath + "-wal", databasePath + "-shm"] {
            guard FileManager.default.fileExists(atPath: path) else { continue }
            if chmod(path, fileMode) != 0 {
                throw .configuration("Cannot make \(path) private (chmod 600); check who owns the data directory.")
            }
        }
    }

    /// The permission bits of a file, or nil if it cannot be read.
    static func mode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }
}

/// Metadata keys this module logs with; values never hold secrets.
enum LogKey {
    static let path = "smsgw.store.path"
    static let mode = "smsgw.store.mode"
    static let migration = "smsgw.store.migration"
    static let contact = "smsgw.contact"
    static let failures = "smsgw.account.failures"
    static let lockedUntil = "smsgw.account.locked-until"
}
