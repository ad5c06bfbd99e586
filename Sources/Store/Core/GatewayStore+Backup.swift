public import Foundation
import GRDB

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
    ///   ``StoreError/configuration(_:)`` when it cannot be created; ``StoreError/database(_:busy:)``.
    public func backup(to destination: URL) throws {
        let path = destination.path
        var existing = stat()
        if lstat(path, &existing) == 0 {
            throw StoreError.alreadyExists("\(path) exists already; choose a new file name for the backup (an existing file is never overwritten).")
        }
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString.prefix(8))").path
        let fd = Glibc.open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, FilePermissions.fileMode)
        guard fd >= 0 else {
            throw StoreError.configuration("Cannot create the backup \(path) (\(Self.reason())); choose a directory this user can write to.")
        }
        // The umask may have taken bits away, never added any; set exactly 0600.
        _ = fchmod(fd, FilePermissions.fileMode)
        _ = close(fd)
        // Once linked, the copy lives on under `path`; the hidden name always goes.
        defer {
            for leftover in [partial, partial + "-journal"] { unlink(leftover) }
        }
        try FilePermissions.withPrivateUmask {
            try StoreError.wrapping {
                let copy = try DatabaseQueue(path: partial)
                try pool.backup(to: copy)
                try copy.close()
            }
        }
        let copied = Glibc.open(partial, O_RDONLY | O_CLOEXEC)
        if copied >= 0 {
            _ = fsync(copied)
            _ = close(copied)
        }
        guard link(partial, path) == 0 else {
            if errno == EEXIST {
                throw StoreError.alreadyExists("\(path) appeared while the backup was written; choose a new file name for the backup.")
            }
            throw StoreError.configuration("Cannot name the backup \(path) (\(Self.reason())); choose a directory this user can write to.")
        }
        logger.info("Backed up the gateway database.", metadata: [LogKey.path: "\(path)"])
    }

    private static func reason() -> String {
        String(validatingCString: strerror(errno)) ?? "error \(errno)"
    }
}
