public import Foundation
public import Store

extension GatewayStatus.Unconfirmed {
    /// Which unconfirmed SMS an operator checked with the contact.
    public enum CheckedScope: Sendable, Equatable {
        /// Every SMS counted as unconfirmed now (``GatewayStatus/Unconfirmed/read(in:now:)``'s).
        case all
        /// The SMS of one outgoing message, by its log id, that went out and have had no
        /// confirmation, whenever they went out.
        case message(Int64)
    }

    /// Marks unconfirmed SMS as checked: an operator asked the contact (by phone), so they stop
    /// counting. A delivery report or an acknowledgement that comes later is still recorded
    /// (`delivered`, `acknowledged`). Audited with `actor`, in the same transaction.
    ///
    /// - Returns: How many SMS were marked (0 for ``CheckedScope/all`` when none counted).
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown message;
    ///   ``MessageError/nothingUnconfirmed(id:)`` (conflict) for a message none of whose SMS
    ///   waits for a confirmation. Nothing is marked then.
    @discardableResult
    public static func markChecked(
        _ scope: CheckedScope, by actor: AuditActor, address: String? = nil, store: UnlockedStore, now: Date
    ) throws -> Int {
        try store.write { tx in
            let count: Int
            let target: String
            switch scope {
            case .all:
                count = try tx.markUnconfirmedChecked(
                    before: now.addingTimeInterval(-threshold), since: now.addingTimeInterval(-window), at: now)
                target = "all"
            case .message(let id):
                _ = try tx.logEntry(id: id)
                count = try tx.markUnconfirmedChecked(messageID: id, at: now)
                guard count > 0 else { throw MessageError.nothingUnconfirmed(id: id) }
                target = "message \(id)"
            }
            try Audit.record(.unconfirmedChecked, by: actor, target: target, address: address, in: tx, now: now)
            return count
        }
    }
}
