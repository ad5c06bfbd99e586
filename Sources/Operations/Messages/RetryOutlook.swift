public import Store

/// Whether sending a failed message again as it was sealed (``Messages/retry(_:by:address:store:now:)``)
/// can go through, from what the store recorded of its failure: every front end shows the same
/// sentence beside its retry, and the retry refuses what this refuses.
public enum RetryOutlook: Sendable, Equatable {
    /// A retry may go through: the failure may pass (the sender gave up after repeated
    /// temporary failures, the peer did not acknowledge), or nothing of it is known.
    case mayHelp
    /// The failure was permanent (a refused number, a SIM refused): the retry sends the same SMS
    /// to the same number, so it fails again unless its cause was fixed since.
    case permanentFailure
    /// The SMS came back with a restored backup and was held (``StoreRestore/heldReason``), and
    /// the resync since made its keys old: the retry sends the SMS sealed before the restore,
    /// which the contact's gateway opens only while it keeps its retired receive chain, and may
    /// have had already. Sending the text again as a new message is the way.
    case heldByRestore
    /// The retry is refused with this error (the contact's keys were restored from a backup and
    /// not resynced since): nothing would be queued.
    case refused(MessageError)

    /// What to tell a person beside the retry; nil when a retry may go through.
    public var sentence: String? {
        switch self {
        case .mayHelp: nil
        case .permanentFailure: "Retrying unchanged will not help: the failure was permanent, so retry only once its cause is fixed."
        case .heldByRestore:
            "Better send the text again as a new message: this SMS came back with a restored backup, sealed with keys the resync since retired, which the contact's gateway keeps for 7 days at most; it may also have had it already."
        case .refused(let error): error.description
        }
    }

    /// Whether a retry is refused (a front end hides its retry and shows ``sentence``).
    public var isRefused: Bool {
        if case .refused = self { return true }
        return false
    }

    /// The outlook of a retry of the message `messageID`, read in the caller's snapshot: from its
    /// failed SMS (``Store/OutboxItem/lastErrorIsPermanent``) and its contact.
    public static func of(_ messageID: Int64, in reader: StoreReader) throws -> RetryOutlook {
        let failed = try reader.outboxItems(ofMessage: messageID).filter { $0.state == .failed && $0.kind == .text }
        guard let first = failed.first else { return .mayHelp }
        let contact = try reader.contact(id: first.contactID)
        if contact.keysRestoredAt != nil { return .refused(.keysRestored(id: messageID, contact: contact.name)) }
        if failed.contains(where: { $0.lastError == StoreRestore.heldReason }) { return .heldByRestore }
        return failed.contains(where: \.lastErrorIsPermanent) ? .permanentFailure : .mayHelp
    }

    /// The outlooks of the messages `messageIDs` (failed ones, as the status lists them), from one
    /// read snapshot.
    public static func of(_ messageIDs: [Int64], store: UnlockedStore) throws -> [Int64: RetryOutlook] {
        try store.read { reader in
            var outlooks: [Int64: RetryOutlook] = [:]
            for id in Set(messageIDs) { outlooks[id] = try of(id, in: reader) }
            return outlooks
        }
    }
}
