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

/// A live SQLite store that cannot be read (damaged pages), for a restore that replaces it with
/// the operator's consent: it is looked at only through SQLite's own checks and kept aside byte
/// for byte, never opened as a store.
extension GatewayStore {
    /// Why the SQLite database of `dataDirectory` cannot be read as a store, or nil when SQLite's
    /// quick check passes. Opened read-only; nothing is written.
    public static func unreadableReason(in dataDirectory: URL) -> String? {
        let path = dataDirectory.appendingPathComponent(databaseFileName).path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "smsgw.restore.check"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            let verdict = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            return verdict == ["ok"] ? nil : "SQLite's quick check: \(verdict.first ?? "no answer")"
        } catch let error as DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        } catch {
            return "\(error)"
        }
    }

    /// The key generators' high-water marks (``keyHighWaters()``) read straight from the
    /// unreadable database of `dataDirectory`, or nil when they cannot be read either.
    public static func keyHighWatersIfReadable(in dataDirectory: URL) -> [String: Int64]? {
        let path = dataDirectory.appendingPathComponent(databaseFileName).path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "smsgw.restore.marks"
        return try? DatabaseQueue(path: path, configuration: configuration).read { db in
            var marks: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence") {
                let name: String = row["name"]
                marks[name] = max(marks[name] ?? 0, row["seq"] as Int64)
            }
            return marks
        }
    }

    /// Copies the database of `dataDirectory` and its `-wal` and `-shm`, byte for byte, to
    /// `aside` (and `aside-wal`, `aside-shm`), each created 0600 and never over an existing file.
    ///
    /// - Throws: ``StoreError/alreadyExists(_:)`` when `aside` exists (nothing is copied);
    ///   ``StoreError/configuration(_:)`` when a file cannot be read or written.
    public static func copyAsIs(in dataDirectory: URL, to aside: URL) throws {
        let database = dataDirectory.appendingPathComponent(databaseFileName).path
        if (try? FileSystem.status(of: aside.path, followingLinks: false)) != nil {
            throw StoreError.alreadyExists("\(aside.path) exists already.")
        }
        for suffix in ["", "-wal", "-shm"] {
            do throws(SystemCallError) {
                let source: FileDescriptor
                do throws(SystemCallError) {
                    source = try FileDescriptor.open(database + suffix, O_RDONLY | O_NOFOLLOW)
                } catch  where error.code == ENOENT && !suffix.isEmpty {
                    continue
                }
                let copy = try FileDescriptor.open(
                    aside.path + suffix, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: FilePermissions.fileMode)
                try copy.setMode(FilePermissions.fileMode)
                var offset = 0
                while true {
                    let bytes = try source.read(upTo: 1 << 20, at: offset)
                    if bytes.isEmpty { break }
                    try copy.writeAll(bytes, at: offset)
                    offset += bytes.count
                }
                try copy.sync()
            } catch {
                throw StoreError.configuration(
                    "Cannot keep \(database + suffix) as \(aside.path + suffix) (\(error.reason)); check the free space and permissions there."
                )
            }
        }
    }
}
