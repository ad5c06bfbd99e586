public import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a SQLite store is opened read-only: it can be read and backed up, never written. In
/// JSON its case's name (`fileSystem`, `permissions`).
public enum ReadOnlyReason: String, Sendable, Hashable, Codable {
    /// Its file system is mounted read-only (a disk the kernel remounted after I/O errors, a
    /// read-only medium).
    case fileSystem
    /// This user may not write to its file or its data directory (another user's copy, modes).
    case permissions

    /// The reason in words, for the sentences that name it.
    public var words: String {
        switch self {
        case .fileSystem: "its file system is mounted read-only"
        case .permissions: "this user may not write to its file or its data directory"
        }
    }
}

extension GatewayStore {
    /// Whether the existing store at `databasePath` in `directory` can only be read, and why:
    /// the file or the directory (where SQLite makes its side files) is not writable. Nil for a
    /// store that can be written, or one that does not exist yet (it is created).
    static func readOnlyReason(directory: String, databasePath: String) -> ReadOnlyReason? {
        guard access(databasePath, F_OK) == 0 else { return nil }
        for path in [databasePath, directory] where access(path, W_OK) != 0 {
            if errno == EROFS { return .fileSystem }
            if errno == EACCES || errno == EPERM { return .permissions }
        }
        return nil
    }

    /// Opens the store's database without ever writing to it or beside it.
    ///
    /// A WAL database needs its `-shm` index, which a read-only place cannot make. With no
    /// `-shm` and no content in a `-wal`, no process has the database open (each connection in
    /// WAL mode keeps the `-shm` while it is open) and the file is all there is: it is opened
    /// `immutable`, without locks or side files. Nothing can change it meanwhile: the file
    /// system or the modes keep every process of this user from writing to it. Otherwise the
    /// existing `-wal` and `-shm` are read through SQLite's read-only mode (since 3.22).
    static func openReadOnlyPool(path: String, configuration: Configuration) throws -> DatabasePool {
        var configuration = configuration
        configuration.readonly = true
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
        let immutable = access(path + "-shm", F_OK) != 0 && (walSize ?? 0) == 0
        // A URI names the file (SQLite is built with URI file names); `?`, `#` and `%` in the
        // path are escaped so they stay part of it.
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return try DatabasePool(path: immutable ? "file:\(escaped)?immutable=1" : path, configuration: configuration)
    }

    /// Refuses a read-only store that a newer smsgw wrote, or an older one: it needs a
    /// migration, which is a write.
    static func refusePendingMigrations(_ pool: DatabasePool, directory: String, reason: ReadOnlyReason) throws {
        let applied = try StoreError.wrapping { try pool.read { try StoreSchema.migrator.appliedIdentifiers($0) } }
        let known = Set(StoreSchema.migrator.migrations)
        guard applied.isSubset(of: known) else { throw StoreError.writtenByNewerVersion }
        guard !known.isSubset(of: applied) else { return }
        throw StoreError.configuration(
            "The store in \(directory) was written by an older smsgw and needs a migration, which a read-only store cannot take (\(reason.words)); copy the data directory to a writable disk and open it there."
        )
    }

    /// Refuses a write to a read-only store with the sentence that says how to get one that can
    /// be written.
    func refuseIfReadOnly() throws(StoreError) {
        if let readOnly { throw .readOnly(directory: directory.path, reason: readOnly) }
    }
}
