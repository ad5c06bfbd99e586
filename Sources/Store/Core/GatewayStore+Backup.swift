public import Foundation
import GRDB
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension GatewayStore {
    /// Writes a consistent copy of the database to `destination`, mode 0600, while other
    /// processes (a running daemon) keep reading and writing.
    ///
    /// SQLite's online backup copies one read snapshot, so the copy never holds half a
    /// transaction, and needs no `-wal` file beside it. The copy is first written to a hidden
    /// file next to `destination` (created 0600, exclusively) and linked to its name only when
    /// complete, so a crash leaves no half-written backup under that name and an existing file is
    /// never replaced. Everything secret in it stays encrypted under the passphrase.
    ///
    /// - Throws: ``StoreError/alreadyExists(_:)`` when `destination` exists;
    ///   ``StoreError/configuration(_:)`` when it cannot be created; ``StoreError/database(_:cause:)``.
    /// On PostgreSQL it refuses (``StoreError/invalidState(_:)``): the server's backups are its own.
    public func backup(to destination: URL) throws {
        guard case .sqlite(let pool) = backend else {
            throw StoreError.invalidState(
                "The store runs on PostgreSQL, which this backup cannot copy; back up the database with the server's tools (pg_dump or base backups)."
            )
        }
        let path = destination.path
        if (try? FileSystem.status(of: path, followingLinks: false)) != nil {
            throw StoreError.alreadyExists(
                "\(path) exists already; choose a new file name for the backup (an existing file is never overwritten).")
        }
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString.prefix(8))").path
        do throws(SystemCallError) {
            let file = try FileDescriptor.open(partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: FilePermissions.fileMode)
            // The umask may have taken bits away, never added any; set exactly 0600.
            try file.setMode(FilePermissions.fileMode)
        } catch {
            throw StoreError.configuration("Cannot create the backup \(path) (\(error.reason)); choose a directory this user can write to.")
        }
        // Once linked, the copy lives on under `path`; the hidden name always goes.
        defer {
            for leftover in [partial, partial + "-journal"] { try? FileSystem.remove(leftover) }
        }
        try FilePermissions.withPrivateUmask {
            try StoreError.wrapping {
                let copy = try DatabaseQueue(path: partial)
                try pool.backup(to: copy)
                try copy.close()
            }
        }
        try? FileDescriptor.open(partial, O_RDONLY).sync()
        do throws(SystemCallError) {
            try FileSystem.link(partial, to: path)
        } catch  where error.code == EEXIST {
            throw StoreError.alreadyExists("\(path) appeared while the backup was written; choose a new file name for the backup.")
        } catch {
            throw StoreError.configuration("Cannot name the backup \(path) (\(error.reason)); choose a directory this user can write to.")
        }
        // The new name survives a power cut only once its directory is on the disk too.
        try? FileSystem.synchronizeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        logger.info("Backed up the gateway database.", metadata: [StoreLog.path: "\(path)"])
    }
}
