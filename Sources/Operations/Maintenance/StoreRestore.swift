public import Foundation
public import Logging
import SMSCipher
public import Store

/// What ``StoreRestore/restore(_:dataDirectory:logger:now:unlock:)`` put in place.
///
/// Its JSON is `{"backup","backupWrittenAt","database","replaced","contacts","messages",
/// "heldOutbox","resync"}`.
public struct RestoreOutcome: Sendable, Hashable, Encodable {
    /// The backup file that was restored (it is left as it was).
    public var backup: String
    /// When the backup file was last written, if its file system says.
    public var backupWrittenAt: Date?
    /// The database that now holds the restored store.
    public var database: String
    /// Where the replaced store was kept: a complete copy, named with the time of the restore.
    public var replaced: String
    /// Contacts in the restored store.
    public var contacts: Int
    /// Messages in the restored log.
    public var messages: Int
    /// Outbox rows of the backup that were queued or being sent, failed instead of sent.
    public var heldOutbox: Int
    /// The contacts whose keys were restored (every one with a session), each of which needs a
    /// resync before anything is sent to it.
    public var resync: [String]
}

/// `smsgw restore FILE`: a backup of a SQLite store put in place of the store, safely.
///
/// The daemon lock is held throughout, so no daemon runs while the store is replaced or starts
/// midway. The backup is copied into the data directory and checked there (SQLite, integrity,
/// an smsgw store no newer than this one, opened with the store's passphrase); the file itself
/// is never changed. The replaced store is kept beside as a complete copy (SQLite's online
/// backup, so whatever its `-wal` held is in it). The copy is then made safe to run: its id
/// generators continue after the replaced store's (no message, event or outbox id is handed out
/// twice), its unsent outbox rows are failed with ``heldReason`` (their texts were sealed with the
/// keys of the backup's time), and every contact with a session is marked as having its keys
/// restored (``Store/Contact/keysRestoredAt``): its key state went back in time, so it shows as
/// needing a resync until one completes. Last, it is renamed over the database: a crash leaves one store or the
/// other, never a mixture.
public enum StoreRestore {
    /// The error every outbox row and log row held by a restore carries.
    public static let heldReason =
        "Not sent: it came back with a restored backup, sealed with keys from before the restore; send the text again once the resync with the contact has completed."

    /// Restores the backup `file` into the SQLite store of `dataDirectory`.
    ///
    /// - Parameters:
    ///   - unlock: Unlocks the staged copy of the backup as every command unlocks a store
    ///     (passphrase, and a code when two-factor login is on); its refusal ends the restore
    ///     with nothing changed.
    /// - Throws: ``MaintenanceError/noDatabase(path:)`` when the data directory holds no store;
    ///   ``MaintenanceError/daemonRunning(directory:pid:)``; the store's errors for a file that is
    ///   not a usable backup (``GatewayStore/stageBackup(_:dataDirectory:)``) and for the copy.
    public static func restore(
        _ file: URL, dataDirectory: URL, logger: Logger, now: Date, unlock: (GatewayStore) throws -> UnlockedStore
    ) throws -> RestoreOutcome {
        let database = dataDirectory.appendingPathComponent(GatewayStore.databaseFileName)
        guard FileManager.default.fileExists(atPath: database.path) else {
            throw MaintenanceError.noDatabase(path: database.path)
        }
        guard let lock = try DaemonLock.acquire(directory: dataDirectory) else {
            throw MaintenanceError.daemonRunning(directory: dataDirectory.path, pid: DaemonLock.probe(directory: dataDirectory) ?? 0)
        }
        defer { lock.release() }
        let written = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
        let staging = try GatewayStore.stageBackup(file, dataDirectory: dataDirectory)
        defer { GatewayStore.removeStagingDirectories(in: dataDirectory) }
        let staged = try unlock(try GatewayStore.open(directory: staging, logger: logger, creating: false))

        let live = try GatewayStore.open(directory: dataDirectory, logger: logger, creating: false)
        let marks = try live.keyHighWaters()
        let replaced = try keepAside(live, in: dataDirectory, now: now)
        try live.close()

        var outcome = try staged.write { tx in
            try tx.continueKeys(after: marks)
            let held = try tx.failUnsentOutbox(reason: heldReason, now: now)
            try tx.markKeysRestored(now: now)
            try restartPendingResyncs(in: tx, now: now)
            return RestoreOutcome(
                backup: file.path, backupWrittenAt: written, database: database.path, replaced: replaced.path,
                contacts: try tx.count(of: .contacts), messages: try tx.count(of: .messages), heldOutbox: held,
                resync: try tx.contacts().filter { $0.keysRestoredAt != nil }.map(\.name))
        }
        try staged.gateway.install(into: dataDirectory)
        outcome.resync.sort { $0.localizedStandardCompare($1) == .orderedAscending }
        return outcome
    }

    /// Abandons every handshake the backup holds as pending and starts one for a later epoch in
    /// its place (as `resync --restart` does, without sending it), logged. The contact may have
    /// answered the backup's handshake after the backup was taken: sent again, it would get the
    /// contact's one repeat answer and complete with the keys the replaced store already used.
    static func restartPendingResyncs(in tx: StoreTransaction, now: Date) throws {
        var rng = SystemRandomNumberGenerator()
        for contact in try tx.contacts() {
            guard let session = try tx.loadSession(for: contact), let old = session.pendingResyncCode else { continue }
            let restarted = session.startingResync(restart: true, using: &rng).session
            try tx.saveSession(restarted, for: contact)
            try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .outgoing, contact: contact, status: .resync,
                    text:
                        "Resync (code \(old)) abandoned by the restore of a backup, as \(contact.name) may have answered it since; a new handshake (code \(restarted.pendingResyncCode ?? "?")) waits to be sent by the operator."
                ))
        }
    }

    /// Copies the replaced store to `smsgw.sqlite.replaced-STAMP` beside it, or `…-STAMP-2` and
    /// on when a restore in the same second (one cut short) took the name.
    private static func keepAside(_ live: GatewayStore, in dataDirectory: URL, now: Date) throws -> URL {
        let name = "\(GatewayStore.databaseFileName).replaced-\(stamp(now))"
        for attempt in 1...asideAttempts {
            let aside = dataDirectory.appendingPathComponent(attempt == 1 ? name : "\(name)-\(attempt)")
            do {
                try live.backup(to: aside)
                return aside
            } catch StoreError.alreadyExists where attempt < asideAttempts {
                continue
            }
        }
        throw StoreError.alreadyExists("\(name) exists already in \(dataDirectory.path); move the replaced stores there elsewhere.")
    }

    /// How many names ``keepAside(_:in:now:)`` tries.
    private static let asideAttempts = 20

    /// The time of the restore for the replaced store's name, in UTC so that names sort by time.
    static func stamp(_ now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: now)
    }
}
