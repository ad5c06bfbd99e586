public import Foundation
import SMSCipher
public import Store

extension VaultSharing {
    /// Deletes every received copy whose expiry has come, offline too, and queues an `expired`
    /// report (docs/PROTOCOL.md §13.1, kind 8) to the contact that shared it when that contact is
    /// still paired and has a number; in the caller's transaction. Every vault operation runs it
    /// first, and the daemon runs it after each scan, so an expired copy is never used. Parts of
    /// records that waited longer than ``partTimeout`` are discarded too.
    ///
    /// - Returns: The titles of the copies deleted.
    @discardableResult
    public static func expire(in tx: StoreTransaction, now: Date) throws -> [String] {
        var rng = SystemRandomNumberGenerator()
        var deleted: [String] = []
        try discardStaleParts(in: tx, now: now)
        for item in try Vault.items(in: tx) {
            guard let received = item.received, let expiresAt = received.expiresAt, expiresAt <= now else { continue }
            try tx.deleteVaultItem(item.id)
            try Vault.record(.expired, item, detail: received.sender, in: tx, now: now)
            deleted.append(item.title)
            // The report is a courtesy to the owner's list of holders: the copy is gone whether or
            // not it can be sent.
            guard let contact = try? tx.contact(id: received.senderID), contact.number != nil,
                (try? tx.requirePairedSession(for: contact)) != nil
            else { continue }
            try sendNotice(
                .expired, share: received.share, to: contact, logText: "Vault: a shared item expired and was deleted.", in: tx, now: now,
                using: &rng)
        }
        return deleted
    }

    /// How long a part of a record waits for the others before it is discarded (a sender that
    /// gets no acknowledgement gives up within about an hour, docs/PROTOCOL.md §9).
    public static let partTimeout: TimeInterval = 7 * 86_400

    /// Deletes the waiting parts older than ``partTimeout``, so a record that never completes
    /// (or a contact sending parts that never do) cannot fill the store; returns how many.
    @discardableResult
    static func discardStaleParts(in tx: StoreTransaction, now: Date) throws -> Int {
        let limit = now.addingTimeInterval(-partTimeout).timeIntervalSince1970
        let stale = try tx.vaultParts().filter { record in
            (try? JSONDecoder().decode(WaitingPart.self, from: record.body)).map { $0.receivedAt < limit } ?? true
        }
        try tx.deleteVaultParts(stale.map(\.id))
        return stale.count
    }

    /// When ``expire(in:now:)`` next has something to do: the earliest expiry of a received copy,
    /// or the time the oldest waiting part is discarded; nil when nothing waits. For a daemon that
    /// sleeps until its next due time.
    public static func nextExpiry(in reader: StoreReader) throws -> Date? {
        let copies = try Vault.items(in: reader).compactMap { $0.received?.expiresAt }
        let parts = try reader.vaultParts().compactMap { record in
            (try? JSONDecoder().decode(WaitingPart.self, from: record.body)).map {
                Date(timeIntervalSince1970: $0.receivedAt).addingTimeInterval(partTimeout)
            }
        }
        return (copies + parts).min()
    }

    /// As ``expire(in:now:)``, in a transaction of its own.
    @discardableResult
    public static func expire(store: UnlockedStore, now: Date) throws -> [String] {
        try store.write { tx in try expire(in: tx, now: now) }
    }
}
