public import Foundation
import SMSCipher
public import Store

/// A new password travelling between the owner and the holders, a re-share reported to the owner,
/// and revocation (docs/VAULT.md, "Sharing over SMS"; docs/PROTOCOL.md §13, kinds 4–7).
extension VaultSharing {
    /// Sends the item's current password where it must go: from the owner, to every holder that
    /// still has a copy (kind 4; each level-1 holder passes it on to its own holders); from a
    /// holder with `use+change+share`, to the contact that shared it (kind 5), who pushes it on.
    ///
    /// - Returns: How many contacts it was sent to.
    /// - Throws: ``VaultError/notPermitted(_:)`` for a received copy without the change permission.
    @discardableResult
    public static func update(_ title: String, store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator) throws -> Int {
        try store.write { tx in
            try expire(in: tx, now: now)
            let item = try Vault.find(title, in: Vault.items(in: tx))
            guard let received = item.received else {
                let count = try push(item, except: nil, in: tx, now: now, using: &rng)
                try Vault.record(.updated, item, detail: holdersDetail(count), in: tx, now: now)
                return count
            }
            guard received.permission == .useChangeAndShare else {
                throw VaultError.notPermitted("This copy was shared with you for \(received.permission); only its owner changes it.")
            }
            let owner = try tx.contact(id: received.senderID).requiringNumber(for: .message, in: tx)
            try sendRecord(
                .password(changedAt: item.passwordChangedAt, password: item.password), kind: .change, share: received.share, to: owner,
                logText: "Vault: a changed password sent to the owner.", in: tx, now: now, using: &rng)
            try Vault.record(.updated, item, detail: owner.name, in: tx, now: now)
            return 1
        }
    }

    /// The detail of an `updated` event: how many holders the password went to.
    static func holdersDetail(_ count: Int) -> String { count == 1 ? "1 holder" : "\(count) holders" }

    /// Sends `item`'s password (kind 4) to every direct holder that still has a copy, but
    /// `except`; returns how many.
    static func push(
        _ item: VaultItem, except excluded: UUID?, in tx: StoreTransaction, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> Int {
        var count = 0
        for entry in item.shares where entry.isLive && entry.via == nil && entry.holderID != excluded {
            guard let holder = try? tx.contact(id: entry.holderID), holder.number != nil else { continue }
            try sendRecord(
                .password(changedAt: item.passwordChangedAt, password: item.password), kind: .update, share: entry.share, to: holder,
                logText: "Vault: a new password pushed to a holder.", in: tx, now: now, using: &rng)
            count += 1
        }
        return count
    }

    /// A new password: from the contact that shared this side's copy (an update, passed on to
    /// this side's own holders), or from a holder allowed to change it (a change, pushed to the
    /// other holders). Anything else is refused.
    static func receive(
        _ password: String, changedAt: Date, kind: VaultMessage.Kind, share: UInt32, from contact: Contact, in tx: StoreTransaction,
        now: Date
    ) throws -> String {
        let items = try Vault.items(in: tx)
        var rng = SystemRandomNumberGenerator()
        let target: VaultItem?
        if kind == .update {
            target = items.first { $0.received?.share == share && $0.received?.senderID == contact.id }
        } else {
            target = items.first { item in
                item.shares.contains {
                    $0.share == share && $0.holderID == contact.id && $0.via == nil && $0.isLive && $0.permission == .useChangeAndShare
                }
            }
        }
        guard var item = target, (try? Vault.Fields.password(password)) != nil else {
            return "A new password for \(name(share)) from \(contact.name), who has no right to change it; refused."
        }
        guard !SecretComparison.equal(item.password, password) else { return "A new password already in force; dropped." }
        try Vault.replacePassword(of: &item, with: password, changedAt: changedAt, generatedBits: nil, in: tx, now: now)
        try tx.updateVaultItem(item.id, body: try item.encoded())
        try Vault.record(.changed, item, detail: contact.name, in: tx, now: now)
        let pushed = try push(item, except: kind == .change ? contact.id : nil, in: tx, now: now, using: &rng)
        return "A new password from \(contact.name); kept and pushed to \(pushed) other holder\(pushed == 1 ? "" : "s")."
    }

    /// A level-1 holder's report that it shared onward: listed among the owner's holders.
    static func receive(
        _ report: ItemShare, reportedUnder share: UInt32, from contact: Contact, in tx: StoreTransaction, now: Date
    ) throws -> String {
        let items = try Vault.items(in: tx)
        guard
            var item = items.first(where: { item in
                item.shares.contains {
                    $0.share == share && $0.holderID == contact.id && $0.via == nil && $0.isLive && $0.permission != .use && $0.level == 1
                }
            })
        else { return "A re-share report for \(name(share)) from \(contact.name), who may not share it onward; refused." }
        guard !item.shares.contains(where: { $0.share == report.share && $0.holderID == contact.id }) else {
            return "A second copy of a re-share report; dropped."
        }
        item.shares.append(report)
        try tx.updateVaultItem(item.id, body: try item.encoded())
        try Vault.record(.reshared, item, detail: "\(contact.name) to \(report.holder), \(report.permission)", in: tx, now: now)
        return "\(contact.name) shared an item onward (\(report.permission)); listed among its holders."
    }
}
