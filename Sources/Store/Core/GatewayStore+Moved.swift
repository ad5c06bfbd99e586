public import Foundation
import SystemCalls

/// A SQLite store whose contents were copied to another store, which the gateway runs from now.
///
/// The copy leaves the old `smsgw.sqlite` in place, kept unused for a while: its key states
/// stop at the copy. A command that opened it afterwards (one run without the configuration
/// that names the new store) would queue a message no daemon sends and step a ratchet that is
/// already further on in the new store. A file beside it records the move, and opening the old
/// store is refused while the file is there.
extension GatewayStore {
    /// The file in the data directory that records where its SQLite store was moved.
    public static let movedMarkerFileName = "smsgw.sqlite.moved"

    /// The longest line of the record that an error quotes.
    private static let movedRecordLimit = 300

    /// Records in the data directory that this SQLite store was copied to `target` and is an
    /// old copy from now on: later opens of it are refused (``refuseIfMoved(_:)``). Nothing for
    /// a store on PostgreSQL, which a copy leaves as it is.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when the record cannot be written.
    public func markMoved(to target: GatewayStore, at now: Date = Date()) throws {
        guard case .sqlite = backend else { return }
        let path = directory.appendingPathComponent(Self.movedMarkerFileName).path
        let when = ISO8601DateFormatter().string(from: now)
        let record = "Copied to \(target.backendName) \(target.location) at \(when).\n"
        do throws(SystemCallError) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: FilePermissions.fileMode)
            try file.setMode(FilePermissions.fileMode)
            try file.writeAll(Array(record.utf8))
            try file.sync()
        } catch {
            throw StoreError.configuration(
                "The store was copied, but \(path) could not be written (\(error.reason)); keep every command off the old store \(databaseURL.path) until the configuration names the new one."
            )
        }
        logger.notice("Recorded that the SQLite store was moved; it is an old copy from now on.", metadata: [StoreLog.path: "\(path)"])
    }

    /// Refuses the SQLite store in `directory` when a copy moved it (the record is there).
    static func refuseIfMoved(_ directory: URL) throws(StoreError) {
        let path = directory.appendingPathComponent(movedMarkerFileName).path
        guard (try? FileSystem.status(of: path, followingLinks: false)) != nil else { return }
        let record =
            (try? String(contentsOfFile: path, encoding: .utf8))?
            .split(separator: "\n").first.map { line in
                String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(movedRecordLimit))
            } ?? "Moved."
        throw .configuration(
            "The SQLite store in \(directory.path) is an old copy: \(record) Open the store it was moved to: name the configuration file whose [store] table points there in SMSGW_CONFIG (or set the SMSGW_STORE_ variables); sending from the old copy would step keys the new store has already used. To use the old copy anyway, remove \(path)."
        )
    }
}
