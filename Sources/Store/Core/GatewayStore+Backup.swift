public import Foundation
import GRDB
public import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension GatewayStore {
    /// Why ``writeCopy(to:pagesPerStep:stop:)`` failed, in parts, for its callers' own words: a
    /// backup an operator asked for and the daemon's automatic ones say different things.
    public enum CopyFailure: Error, Sendable, Equatable {
        /// The hidden partial file could not be created.
        case create(SystemCallError)
        /// The database could not write the copy (a full disk, a failing one), or read the store.
        case write(StoreError)
        /// The complete copy could not be given its name (`EEXIST`: a file of that name appeared).
        case name(SystemCallError)
    }

    /// Writes a consistent copy of the database to `destination`, mode 0600, while other
    /// processes (a running daemon) keep reading and writing: ``writeCopy(to:pagesPerStep:stop:)``
    /// with its failures in the words of a backup an operator asked for.
    ///
    /// - Throws: ``StoreError/alreadyExists(_:)`` when `destination` exists;
    ///   ``StoreError/configuration(_:)`` when it cannot be created; ``StoreError/database(_:cause:)``.
    /// On PostgreSQL it refuses (``StoreError/invalidState(_:)``): the server's backups are its own.
    public func backup(to destination: URL) throws {
        let path = destination.path
        do {
            try writeCopy(to: destination)
        } catch CopyFailure.create(let error) {
            throw StoreError.configuration("Cannot create the backup \(path) (\(error.reason)); choose a directory this user can write to.")
        } catch CopyFailure.write(let error) {
            throw BackupWriteError(path: path, error: error) ?? error
        } catch CopyFailure.name(let error) where error.code == EEXIST {
            throw StoreError.alreadyExists("\(path) appeared while the backup was written; choose a new file name for the backup.")
        } catch CopyFailure.name(let error) {
            throw StoreError.configuration("Cannot name the backup \(path) (\(error.reason)); choose a directory this user can write to.")
        }
    }

    /// Writes a consistent copy of the database to `destination`, mode 0600.
    ///
    /// SQLite's online backup copies one read snapshot, so the copy never holds half a
    /// transaction, and needs no `-wal` file beside it. The copy is first written to a hidden
    /// file next to `destination`, `.NAME.partial-XXXXXXXX` (created 0600, exclusively, and
    /// `flock`ed for as long as it is written, so that whoever clears leftovers of interrupted
    /// copies can tell it from one), and linked to its name only when complete, so a crash leaves
    /// no half-written backup under that name and an existing file is never replaced. Everything
    /// secret in it stays encrypted under the passphrase.
    ///
    /// - Parameters:
    ///   - pagesPerStep: The database pages copied in one step (4 KiB each).
    ///   - stop: Asked after each step; true ends the copy, with the partial file removed.
    /// - Throws: ``StoreError/alreadyExists(_:)`` when `destination` exists; ``CopyFailure``;
    ///   `CancellationError` when `stop` said so. On PostgreSQL ``StoreError/invalidState(_:)``.
    public func writeCopy(to destination: URL, pagesPerStep: Int32 = 1024, stop: @escaping () -> Bool = { false }) throws {
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
        let file = try Self.createPartial(partial)
        // Once linked, the copy lives on under `path`; the hidden name always goes.
        defer {
            for leftover in [partial, partial + "-journal"] { try? FileSystem.remove(leftover) }
        }
        do {
            try FilePermissions.withPrivateUmask {
                try StoreError.wrapping {
                    let copy = try DatabaseQueue(path: partial)
                    try pool.backup(to: copy, pagesPerStep: pagesPerStep) { _ in
                        if stop() { throw CancellationError() }
                    }
                    try copy.close()
                }
            }
        } catch let error as StoreError {
            throw CopyFailure.write(error)
        }
        try? file.sync()
        do throws(SystemCallError) {
            try FileSystem.link(partial, to: path)
        } catch {
            throw CopyFailure.name(error)
        }
        // The new name survives a power cut only once its directory is on the disk too.
        try? FileSystem.synchronizeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        logger.info("Backed up the gateway database.", metadata: [StoreLog.path: "\(path)"])
    }

    /// Creates the hidden partial file, 0600 and locked: the lock is held until the hidden name
    /// is gone (the descriptor closes after its removal).
    private static func createPartial(_ path: String) throws(CopyFailure) -> FileDescriptor {
        do throws(SystemCallError) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: FilePermissions.fileMode)
            do throws(SystemCallError) {
                // The umask may have taken bits away, never added any; set exactly 0600.
                try file.setMode(FilePermissions.fileMode)
                try file.lock(.exclusive, waiting: false)
            } catch {
                try? FileSystem.remove(path)
                throw error
            }
            return file
        } catch {
            throw .create(error)
        }
    }
}
