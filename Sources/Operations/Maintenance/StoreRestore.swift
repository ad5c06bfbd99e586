public import Foundation
public import Logging
import SMSCipher
public import Store

/// What ``StoreRestore/restore(_:dataDirectory:logger:now:unlock:)`` put in place.
///
/// Its JSON is `{"backup","backupWrittenAt","database","replaced","contacts","messages",
/// "heldOutbox","resync","epochsCarried","removedLeftovers","pairedSinceBackup","replacedUnreadable",
/// "idsContinued"}`.
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
    /// Whether the replaced store opened with the same passphrase (and code), so that each
    /// contact's next resync starts just above the epochs it reached; when false, each contact's
    /// next resync starts ``StoreRestore/unknownEpochMargin`` above the backup's epoch instead,
    /// above any the replaced store can have reached.
    public var epochsCarried: Bool
    /// The names of the staging files an interrupted restore had left in the data directory,
    /// removed by this one.
    public var removedLeftovers: [String]
    /// The contacts not paired in the backup whose pairing the replaced store had completed: the
    /// contact holds keys this store no longer has, so both sides must pair again from new codes
    /// (each shows as not paired with that advice, ``SyncAdvice/pairAgainAfterRestore(restoredAt:)``).
    /// Known only when the replaced store opened (``epochsCarried``).
    public var pairedSinceBackup: [String]
    /// Whether the replaced store could not be read and was kept aside byte for byte (with the
    /// operator's consent) instead of as a complete copy.
    public var replacedUnreadable: Bool
    /// Whether the ids continue after the replaced store's; false when its key generators
    /// could not be read, so an id may repeat one the lost store handed out.
    public var idsContinued: Bool
}

/// `smsgw restore FILE`: a backup of a SQLite store put in place of the store, safely.
///
/// The daemon lock is held throughout, so no daemon runs while the store is replaced or starts
/// midway, and so is the ``Store/StoreLock`` exclusive: the restore starts only when no other
/// process has the store open, and none opens it until the restore has finished, so no write
/// lands in the replaced file. What an interrupted restore left is removed first. The backup is copied into the data directory and checked there (SQLite, integrity,
/// an smsgw store no newer than this one, opened with the store's passphrase); the file itself
/// is never changed. The replaced store is kept beside as a complete copy (SQLite's online
/// backup, so whatever its `-wal` held is in it). The copy is then made safe to run: its id
/// generators continue after the replaced store's (no message, event or outbox id is handed out
/// twice), its unsent outbox rows are failed with ``heldReason`` (their texts were sealed with the
/// keys of the backup's time), and every contact with a session is marked as having its keys
/// restored (``Store/Contact/keysRestoredAt``): its key state went back in time, so it shows as
/// needing a resync until one completes; when the replaced store opens with the same passphrase,
/// each contact's next resync is set to start above the epochs it reached. Last, it is renamed over the database: a crash leaves one store or the
/// other, never a mixture.
public enum StoreRestore {
    /// The error every text's outbox row and log row held by a restore carries.
    public static let heldReason =
        "Not sent: it came back with a restored backup, sealed with keys from before the restore; send the text again once the resync with the contact has completed."

    /// The error an outbox row of `kind` held by a restore carries: a handshake and an
    /// acknowledgement are not the operator's to send again.
    public static func heldReason(_ kind: OutboxKind) -> String {
        switch kind {
        case .text: heldReason
        case .handshake:
            "Not sent: a resync handshake that came back with a restored backup, made with the backup's key state; the resync the restore asks for sends one of its own."
        case .acknowledgement:
            "Not sent: an acknowledgement that came back with a restored backup, sealed with keys from before the restore; it is not sent again."
        }
    }

    /// Restores the backup `file` into the SQLite store of `dataDirectory`.
    ///
    /// - Parameters:
    ///   - replacingUnreadable: The operator's consent to replace a store that cannot be read
    ///     (``MaintenanceError/unreadableStore(path:reason:)`` without it): it is kept aside byte
    ///     for byte, and its ids and epochs are carried as far as they can be read.
    ///   - credentials: Asks for the passphrase (and a code when the login says two-factor login
    ///     is on) that unlock the staged copy of the backup; a refusal ends the restore with
    ///     nothing changed. The replaced store is tried with the same, never asked for again.
    /// - Throws: ``MaintenanceError/noDatabase(path:)`` when the data directory holds no store;
    ///   ``MaintenanceError/daemonRunning(directory:pid:)``; ``Store/StoreError/inUse(_:)`` when
    ///   another process has the store open; the store's errors for a file that is
    ///   not a usable backup (``GatewayStore/stageBackup(_:dataDirectory:)``) and for the copy.
    public static func restore(
        _ file: URL, dataDirectory: URL, logger: Logger, now: Date, replacingUnreadable: Bool = false,
        credentials: (Login) throws -> LoginCredentials
    ) throws -> RestoreOutcome {
        let database = dataDirectory.appendingPathComponent(GatewayStore.databaseFileName)
        if GatewayStore.hasNoDatabase(in: dataDirectory) { throw MaintenanceError.noDatabase(path: database.path) }
        guard let lock = try DaemonLock.acquire(directory: dataDirectory) else {
            // Another restore holds the daemon's lock too.
            if StoreLock.isRestoring(directory: dataDirectory) { throw StoreError.inUse(.restoring(directory: dataDirectory.path)) }
            throw MaintenanceError.daemonRunning(directory: dataDirectory.path, pid: DaemonLock.probe(directory: dataDirectory) ?? 0)
        }
        defer { lock.release() }
        let storeLock = try StoreLock.exclusive(directory: dataDirectory)
        defer { storeLock.release() }
        // No other restore can own them while this one holds the lock exclusive.
        let leftovers = GatewayStore.removeStagingDirectories(in: dataDirectory)
        let written = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
        let staging = try GatewayStore.stageBackup(file, dataDirectory: dataDirectory)
        defer { GatewayStore.removeStagingDirectories(in: dataDirectory) }
        let login = try Login.begin(try GatewayStore.open(directory: staging, logger: logger, creating: false), now: now)
        let given = try credentials(login)
        let staged = try login.unlock(passphrase: given.passphrase, code: given.code, now: now)

        let replaced = try keepReplaced(
            in: dataDirectory, lock: storeLock, logger: logger, now: now, credentials: given, consentingIfUnreadable: replacingUnreadable)
        let epochs = replaced.epochs

        var outcome = try staged.write { tx in
            if let marks = replaced.marks { try tx.continueKeys(after: marks) }
            let held = try tx.failUnsentOutbox(reason: heldReason(_:), now: now)
            try tx.markKeysRestored(now: now)
            // The daemons the backup caught running stopped since; no daemon runs here now.
            try tx.stopNodesLeftRunning()
            try restartResyncs(in: tx, above: epochs, now: now)
            let pairedSince = try pairedSinceBackup(in: tx, paired: Set((epochs ?? [:]).keys), now: now)
            return RestoreOutcome(
                backup: file.path, backupWrittenAt: written, database: database.path, replaced: replaced.aside.path,
                contacts: try tx.count(of: .contacts), messages: try tx.count(of: .messages), heldOutbox: held,
                resync: try tx.contacts().filter { $0.keysRestoredAt != nil && !pairedSince.contains($0.name) }.map(\.name),
                epochsCarried: epochs != nil,
                removedLeftovers: leftovers, pairedSinceBackup: pairedSince, replacedUnreadable: replaced.unreadable,
                idsContinued: replaced.marks != nil)
        }
        try staged.gateway.install(into: dataDirectory, unreadable: replaced.unreadable)
        outcome.resync.sort { $0.localizedStandardCompare($1) == .orderedAscending }
        outcome.pairedSinceBackup.sort { $0.localizedStandardCompare($1) == .orderedAscending }
        return outcome
    }

    /// Abandons every handshake the backup holds as pending, and starts one for a later epoch in
    /// its place (as `resync --restart` does, without sending it), logged. The contact may have
    /// answered the backup's handshake after the backup was taken: sent again, it would get the
    /// contact's one repeat answer and complete with the keys the replaced store already used.
    /// Likewise for a contact whose session in the replaced store reached an epoch (`floors`, by
    /// contact id) the backup's next handshake would not be above: the contact would refuse it
    /// as a replay. When the replaced store could not be read (`floors` nil), every contact's
    /// next handshake goes ``unknownEpochMargin`` above the backup's epochs.
    static func restartResyncs(in tx: StoreTransaction, above floors: [UUID: UInt32]?, now: Date) throws {
        var rng = SystemRandomNumberGenerator()
        for contact in try tx.contacts() {
            guard let session = try tx.loadSession(for: contact) else { continue }
            let floor = floors.map { $0[contact.id] ?? 0 } ?? unknownFloor(above: session.highestEpoch)
            let reason: String
            if floors == nil {
                reason =
                    "The replaced store could not be read, so the epoch it reached with \(contact.name) after the backup is unknown; the next resync starts at epoch \(floor + 1), above any it can have reached"
            } else if let old = session.pendingResyncCode {
                reason = "Resync (code \(old)) abandoned by the restore of a backup, as \(contact.name) may have answered it since"
            } else if floor > session.highestEpoch {
                reason = "The replaced store resynced with \(contact.name) after the backup was taken (epoch \(floor))"
            } else {
                continue
            }
            let restarted = session.startingResync(restart: true, above: floor, using: &rng).session
            try tx.saveSession(restarted, for: contact)
            try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .outgoing, contact: contact, status: .resync,
                    text:
                        "\(reason); a new handshake (code \(restarted.pendingResyncCode ?? "?")) for a later epoch waits to be sent by the operator."
                ))
        }
    }

    /// Marks and logs each contact without keys in the backup that had keys in the replaced store
    /// (`paired`: the contact ids with a session there): it must be paired again.
    ///
    /// - Returns: Their names.
    static func pairedSinceBackup(in tx: StoreTransaction, paired: Set<UUID>, now: Date) throws -> [String] {
        let contacts = try tx.contacts().filter { contact in
            try paired.contains(contact.id) && tx.loadSession(for: contact) == nil
        }
        for contact in contacts {
            try tx.markPairingLost(contact, now: now)
            try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .outgoing, contact: contact, status: .resync,
                    text:
                        "The replaced store had completed pairing with \(contact.name) after the backup was taken, so \(contact.name) holds keys this store no longer has: start a manual re-pairing on both sides and pair from the new codes."
                ))
        }
        return contacts.map(\.name)
    }

    /// How far above the backup's epoch a contact's next handshake goes when the replaced store
    /// could not be read. The contact takes any epoch above its own (docs/PROTOCOL.md §6.3), and
    /// each epoch it can have reached past the backup's took a handshake SMS between the two
    /// gateways: 65,536 of them between a backup and its restore do not happen, and 32 bits of
    /// epoch leave room for 65,535 such restores.
    public static let unknownEpochMargin: UInt32 = 1 << 16

    /// The epoch a handshake must be above when the replaced store's is unknown (`highest`: the
    /// backup's), short of the epoch's end.
    static func unknownFloor(above highest: UInt32) -> UInt32 {
        highest < UInt32.max - unknownEpochMargin ? highest + unknownEpochMargin : UInt32.max - 1
    }
}
