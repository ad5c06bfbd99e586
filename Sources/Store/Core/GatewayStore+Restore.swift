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

/// Putting a backup in place of a SQLite store: the backup is copied (never opened, never
/// changed) into a private directory inside the data directory, checked and prepared there, and
/// renamed over the database only once complete, so a crash leaves the old store or the new one.
extension GatewayStore {
    /// The start of the name of a staging directory inside the data directory.
    static let restoreStagingPrefix = ".smsgw.restore-"
    /// The first 16 bytes of every SQLite database file.
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)
    /// How much of the backup is copied at a time.
    private static let copyChunk = 1 << 20

    /// Copies the backup `file` into a new private directory of `dataDirectory` (0700, the copy
    /// 0600) and checks the copy: a SQLite database, its integrity check passing, an smsgw store
    /// no newer than this smsgw. `file` itself is only read. The caller holds the daemon lock and
    /// the ``StoreLock`` exclusive, and has removed what an interrupted restore left
    /// (``removeStagingDirectories(in:)``).
    ///
    /// - Returns: The staging directory, whose `smsgw.sqlite` is the copy; open it with
    ///   ``open(directory:logger:creating:)``, which migrates an older copy.
    /// - Throws: ``StoreError/invalidInput(_:)`` when `file` is the live store, not a regular file,
    ///   not SQLite or not an smsgw store; ``StoreError/notFound(_:)`` is never thrown: a missing
    ///   file is ``StoreError/invalidInput(_:)`` too; ``StoreError/corrupted(_:)`` when the
    ///   integrity check fails; ``StoreError/configuration(_:)`` for a newer smsgw's store or a
    ///   staging directory that cannot be made.
    public static func stageBackup(_ file: URL, dataDirectory: URL) throws -> URL {
        let path = file.path
        let source = try readableBackup(path, dataDirectory: dataDirectory)
        let staging = dataDirectory.appendingPathComponent(restoreStagingPrefix + UUID().uuidString.prefix(8))
        do {
            try FilePermissions.withPrivateUmask {
                try FileManager.default.createDirectory(
                    at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: Int(FilePermissions.directoryMode)])
            }
            let copy = try FileDescriptor.open(
                staging.appendingPathComponent(databaseFileName).path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
                mode: FilePermissions.fileMode)
            try copy.setMode(FilePermissions.fileMode)
            var offset = 0
            while true {
                let bytes = try source.read(upTo: copyChunk, at: offset)
                if bytes.isEmpty { break }
                try copy.writeAll(bytes, at: offset)
                offset += bytes.count
            }
            try copy.sync()
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw StoreError.configuration(
                "Cannot copy \(path) into \(dataDirectory.path) (\(error)); check the free space and permissions there.")
        }
        do {
            try checkBackup(staging.appendingPathComponent(databaseFileName).path, named: path)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        return staging
    }

    /// Opens `path` for reading after refusing what cannot be a backup of this data directory.
    private static func readableBackup(_ path: String, dataDirectory: URL) throws -> FileDescriptor {
        let live = dataDirectory.appendingPathComponent(databaseFileName).path
        guard let info = try? FileSystem.status(of: path), info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError.invalidInput("\(path) is not a file; name the backup file to restore.")
        }
        if let current = try? FileSystem.status(of: live), current.st_dev == info.st_dev, current.st_ino == info.st_ino {
            throw StoreError.invalidInput("\(path) is the store itself; name a backup file to restore.")
        }
        if let wal = try? FileSystem.status(of: path + "-wal"), wal.st_size > 0 {
            throw StoreError.invalidInput(
                "\(path) has a -wal file beside it, so it is a database in use or not closed cleanly, not a complete backup; restore a file written by a backup instead."
            )
        }
        let file: FileDescriptor
        do throws(SystemCallError) {
            file = try FileDescriptor.open(path, O_RDONLY)
        } catch {
            throw StoreError.invalidInput("Cannot read \(path) (\(error.reason)); name a backup file this user can read.")
        }
        guard (try? file.read(upTo: sqliteHeader.count, at: 0)) == sqliteHeader else {
            throw StoreError.invalidInput("\(path) is not a SQLite database; name a file written by a backup.")
        }
        return file
    }

    /// The integrity check and the migrations of the copy at `path` (of the backup `named`).
    private static func checkBackup(_ path: String, named backup: String) throws {
        let migrations: [String]
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            let verdict = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard verdict == ["ok"] else {
                throw StoreError.corrupted(
                    "\(backup) fails SQLite's integrity check (\(verdict.first ?? "no answer")); restore another backup.")
            }
            migrations = try queue.read { db in
                try db.tableExists("grdb_migrations")
                    ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            }
        } catch let error as DatabaseError {
            throw StoreError.corrupted(
                "\(backup) cannot be read as a database (\(error.message ?? "SQLite error \(error.resultCode.rawValue)")); restore another backup."
            )
        }
        guard migrations.contains("v1-account") else {
            throw StoreError.invalidInput("\(backup) is a SQLite database but not an smsgw store; name a file written by a backup.")
        }
        guard Set(migrations).isSubset(of: Set(StoreSchema.migrator.migrations)) else {
            throw StoreError.configuration("\(backup) was written by a newer smsgw; upgrade smsgw before restoring it.")
        }
    }

    /// Removes the staging directories of `dataDirectory`, finished or left by a crash, and the
    /// hidden partial copies of replaced stores a crash left. Only a restore holding the
    /// ``StoreLock`` exclusive calls it: no other restore can be using them.
    ///
    /// - Returns: The names of the entries removed, sorted.
    @discardableResult
    public static func removeStagingDirectories(in dataDirectory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
        let partial = ".\(databaseFileName).replaced-"
        return names.filter { name in
            guard name.hasPrefix(restoreStagingPrefix) || (name.hasPrefix(partial) && name.contains(".partial-")) else { return false }
            return (try? FileManager.default.removeItem(at: dataDirectory.appendingPathComponent(name))) != nil
        }.sorted()
    }

    /// Every key generator's high-water mark (`sqlite_sequence`), by table: the largest id each
    /// table has handed out, deleted rows included. Empty on PostgreSQL, which a restore refuses.
    public func keyHighWaters() throws -> [String: Int64] {
        guard case .sqlite = backend else { return [:] }
        return try StoreError.wrapping {
            try readTransaction { db in
                var marks: [String: Int64] = [:]
                for row in try db.rows(sql: "SELECT name, seq FROM sqlite_sequence") {
                    let name: String = row["name"]
                    marks[name] = max(marks[name] ?? 0, row["seq"] as Int64)
                }
                return marks
            }
        }
    }

    /// Closes this store (a staged copy, prepared) and renames its database over the one of
    /// `dataDirectory`, whose store must be closed already: the copy is synced first, and the
    /// live store's empty `-wal` and `-shm` go before the rename, so no stale `-wal` is ever
    /// applied to the new file. The caller holds the daemon lock.
    ///
    /// - Parameter unreadable: The live store could not be read and was kept aside byte for
    ///   byte with its `-wal` (``copyAsIs(in:to:)``), which then goes without the check.
    /// - Throws: ``StoreError/invalidState(_:)`` when the live store's `-wal` still holds pages
    ///   (another process has it open): nothing is replaced then; ``StoreError/configuration(_:)``
    ///   when a file cannot be synced, removed or renamed.
    public func install(into dataDirectory: URL, unreadable: Bool = false) throws {
        try closeDatabase()
        let live = dataDirectory.appendingPathComponent(Self.databaseFileName).path
        if !unreadable, let wal = try? FileSystem.status(of: live + "-wal"), wal.st_size > 0 {
            throw StoreError.invalidState(
                "Another process still has \(live) open (its -wal holds changes); stop every smsgw command on this data directory and restore again."
            )
        }
        do throws(SystemCallError) {
            try FileDescriptor.open(databaseURL.path, O_RDONLY).sync()
            for side in [live + "-wal", live + "-shm"] { try FileSystem.remove(side) }
            try FileSystem.rename(databaseURL.path, to: live)
            try FileSystem.synchronizeDirectory(dataDirectory.path)
        } catch {
            throw StoreError.configuration("Cannot put the restored store in place at \(live) (\(error.reason)); check the data directory.")
        }
        logger.notice("Restored the gateway database from a backup.", metadata: [StoreLog.path: "\(live)"])
    }
}
