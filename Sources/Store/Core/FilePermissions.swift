import Foundation
import Logging
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the data directory private (0700) and the database files private (0600), and refuses
/// a directory or file that someone else could have planted or can still change.
///
/// SQLite creates `-wal` and `-shm` with the mode of the database file, so a private database
/// file keeps its side files private even when another process recreates them later.
///
/// Checking the files with `lstat` before opening them is free of races against other users
/// because the directory is first checked to be this user's and writable by nobody else: only
/// this user can create, rename or replace entries in it between the check and the open.
enum FilePermissions {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600
    /// The process umask while the store creates files: nothing for group or others.
    static let creationMask: mode_t = 0o077

    /// Creates `directory` with mode 0700 if it is missing; refuses an existing one that another
    /// user owns or that group or others may write to, and warns when others may read it.
    static func prepareDirectory(_ directory: URL, logger: Logger) throws(StoreError) {
        let path = directory.path
        if let info = try status(of: path, followingLinks: true) {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .configuration("The data directory \(path) is a file; choose a directory as the data directory.")
            }
            try checkOwner(of: path, info, what: "The data directory")
            if info.st_mode & 0o022 != 0 {
                throw .configuration(
                    "The data directory \(path) is writable by other users, who could replace its files; make it private with chmod 700 \(path)."
                )
            }
            if info.st_mode & 0o055 != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                logger.warning(
                    "The data directory \(path) is readable by other users (mode \(mode)); make it private with chmod 700 \(path).",
                    metadata: [StoreLog.path: "\(path)", StoreLog.mode: "\(mode)"]
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
            throw .configuration(
                "Cannot create the data directory \(path); check its parent's permissions or choose another data directory.")
        }
        // createDirectory applies the umask on some platforms; set the mode explicitly.
        try? FileSystem.setMode(directoryMode, of: path)
    }

    /// Refuses the store's files in `directory` that are symbolic links, not regular files, or
    /// another user's; missing ones are fine (they are created private).
    static func checkFiles(in directory: URL) throws(StoreError) {
        let database = GatewayStore.databaseFileName
        for name in [database, database + "-wal", database + "-shm", UnlockLock.fileName, DaemonLock.fileName, StoreLock.fileName] {
            let path = directory.appendingPathComponent(name).path
            guard let info = try status(of: path, followingLinks: false) else { continue }
            if info.st_mode & S_IFMT == S_IFLNK { throw symbolicLinkRefused(path) }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw .configuration("\(path) is not a regular file; move it out of the data directory.")
            }
            try checkOwner(of: path, info, what: "The file")
        }
    }

    /// The error for a store file that is a symbolic link.
    static func symbolicLinkRefused(_ path: String) -> StoreError {
        .configuration(
            "\(path) is a symbolic link, and smsgw does not follow links in its data directory; put the real file there instead (or use the directory that holds it as the data directory)."
        )
    }

    private static func checkOwner(of path: String, _ info: stat, what: String) throws(StoreError) {
        let user = geteuid()
        guard info.st_uid != user else { return }
        let name = getpwuid(user).flatMap { String(validatingCString: $0.pointee.pw_name) } ?? "\(user)"
        throw .configuration(
            "\(what) \(path) belongs to another user (uid \(info.st_uid)); run smsgw as that user, or take it over with chown -R \(name) \(path)."
        )
    }

    /// Runs `body` with umask 077 so files it creates start private, then restores the old mask.
    ///
    /// The umask is process-wide; the window is as short as opening the database.
    static func withPrivateUmask<T>(_ body: () throws -> T) rethrows -> T {
        try FileSystem.withUmask(creationMask, body)
    }

    /// Sets mode 0600 on the database and whichever side files exist.
    static func restrictDatabaseFiles(_ databasePath: String) throws(StoreError) {
        for path in [databasePath, databasePath + "-wal", databasePath + "-shm"] {
            do throws(SystemCallError) {
                // A side file SQLite removed meanwhile needs no mode.
                guard try FileSystem.status(of: path) != nil else { continue }
                try FileSystem.setMode(fileMode, of: path)
            } catch  where error.code == ENOENT {
                continue
            } catch {
                throw .configuration(error.description)
            }
        }
    }

    /// The permission bits of a file, or nil if it cannot be read.
    static func mode(of path: String) -> mode_t? {
        (try? FileSystem.status(of: path)).flatMap { $0 }.map { $0.st_mode & 0o777 }
    }

    /// The status of a file of the data directory, nil when it is missing.
    /// - Throws: ``StoreError/configuration(_:)`` naming the call when it cannot be looked at.
    private static func status(of path: String, followingLinks: Bool) throws(StoreError) -> stat? {
        do throws(SystemCallError) {
            return try FileSystem.status(of: path, followingLinks: followingLinks)
        } catch {
            throw .configuration(error.description)
        }
    }
}
