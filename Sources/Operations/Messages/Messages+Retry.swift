public import Foundation
public import Store

extension Messages {
    /// Sends a failed message again: its SMS are queued as they were sealed (the same
    /// ciphertexts; a peer that has one already drops it as a copy), and the log row reads
    /// `queued` until the daemon sends them. Audited with `actor`.
    ///
    /// - Returns: How many SMS were queued again.
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown message;
    ///   ``MessageError/nothingToRetry(id:)`` (conflict) when none of its SMS failed;
    ///   ``MessageError/keysRestored(id:contact:)`` (conflict) while the contact's keys are
    ///   restored from a backup and not resynced since (``Store/Contact/keysRestoredAt``): the
    ///   SMS would go out sealed with the keys of before the restore, whose positions the
    ///   replaced store may have used. Nothing is queued then. ``RetryOutlook`` says the same
    ///   before anyone tries, and whether a retry can help at all.
    @discardableResult
    public static func retry(_ messageID: Int64, by actor: AuditActor, address: String? = nil, store: UnlockedStore, now: Date) throws
        -> Int
    {
        try store.write { tx in
            _ = try tx.logEntry(id: messageID)
            let outlook = try RetryOutlook.of(messageID, in: tx)
            let count = try tx.requeueFailedOutbox(messageID: messageID, now: now)
            guard count > 0 else { throw MessageError.nothingToRetry(id: messageID) }
            // Thrown after the requeue, so a message with nothing failed says so; the throw undoes it.
            if case .refused(let error) = outlook { throw error }
            try Audit.record(.retry, by: actor, target: "message \(messageID)", address: address, in: tx, now: now)
            return count
        }
    }
}
