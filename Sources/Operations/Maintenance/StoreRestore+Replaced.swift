import Foundation
import Logging
import Store

/// What a restore learnt from the store it replaces, and where it kept it.
struct ReplacedStore {
    /// The copy kept beside the new store.
    var aside: URL
    /// Its key generators' high-water marks; nil when they could not be read.
    var marks: [String: Int64]?
    /// The highest epoch of each contact with a session there, by contact id; nil when it did
    /// not open with the backup's passphrase or could not be read.
    var epochs: [UUID: UInt32]?
    /// Whether it could not be read and was kept aside byte for byte.
    var unreadable: Bool
}

extension StoreRestore {
    /// Keeps the store of `dataDirectory` aside and reads what the restored store must carry
    /// from it: a complete copy (SQLite's online backup) of a store that opens; of one that
    /// cannot be read, with `consent`, the files as they are.
    ///
    /// - Throws: ``MaintenanceError/unreadableStore(path:reason:)`` for a store that cannot be
    ///   read, without `consent`; the store's errors.
    static func keepReplaced(
        in dataDirectory: URL, lock: StoreLock, logger: Logger, now: Date, credentials given: LoginCredentials,
        consentingIfUnreadable consent: Bool
    ) throws -> ReplacedStore {
        // Looked at read-only first, so an unreadable store is kept before anything opens it to write.
        if let reason = GatewayStore.unreadableReason(in: dataDirectory) {
            let path = dataDirectory.appendingPathComponent(GatewayStore.databaseFileName).path
            guard consent else { throw MaintenanceError.unreadableStore(path: path, reason: reason) }
            let kept = try keepAside(in: dataDirectory, now: now) { try GatewayStore.copyAsIs(in: dataDirectory, to: $0) }
            return ReplacedStore(aside: kept, marks: GatewayStore.keyHighWatersIfReadable(in: dataDirectory), epochs: nil, unreadable: true)
        }
        let live = try GatewayStore.open(directory: dataDirectory, logger: logger, restoring: lock)
        let marks = try live.keyHighWaters()
        let aside = try keepAside(in: dataDirectory, now: now) { try live.backup(to: $0) }
        // After the copy is kept aside, so a refused attempt counts only on the store being replaced.
        let epochs = try? Login.begin(live, now: now).unlock(passphrase: given.passphrase, code: given.code, now: now).read { reader in
            try reader.contacts().reduce(into: [UUID: UInt32]()) { floors, contact in
                floors[contact.id] = try reader.loadSession(for: contact)?.highestEpoch
            }
        }
        try live.close()
        return ReplacedStore(aside: aside, marks: marks, epochs: epochs, unreadable: false)
    }

    /// Keeps the replaced store (`write` makes the copy at a name) as
    /// `smsgw.sqlite.replaced-STAMP` beside it, or `…-STAMP-2` and on when a restore in the same
    /// second (one cut short) took the name.
    private static func keepAside(in dataDirectory: URL, now: Date, _ write: (URL) throws -> Void) throws -> URL {
        let name = "\(GatewayStore.databaseFileName).replaced-\(stamp(now))"
        for attempt in 1...asideAttempts {
            let aside = dataDirectory.appendingPathComponent(attempt == 1 ? name : "\(name)-\(attempt)")
            do {
                try write(aside)
                return aside
            } catch StoreError.alreadyExists where attempt < asideAttempts {
                continue
            }
        }
        throw StoreError.alreadyExists("\(name) exists already in \(dataDirectory.path); move the replaced stores there elsewhere.")
    }

    /// How many names ``keepAside(in:now:_:)`` tries.
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
