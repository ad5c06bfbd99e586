public import Foundation
import SMSCipher
public import Store

/// Taking a shared item back, and replacing a password that holders may have kept.
extension VaultSharing {
    /// Revokes the item's shares with `contactName` (kind 6): the contact's gateway deletes its
    /// copy and revokes the copies it shared onward; this side lists them all as revoked and marks
    /// the item exposed, since a holder who could use the password may have kept it.
    ///
    /// - Returns: The holders that lose the item, the contact first, then those it shared with.
    /// - Throws: ``VaultError/invalid(_:)`` when the item is not shared with that contact.
    @discardableResult
    public static func revoke(
        _ title: String, from contactName: String, store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> [String] {
        try store.write { tx in
            try expire(in: tx, now: now)
            var item = try Vault.find(title, in: Vault.items(in: tx))
            let contact = try tx.contact(named: contactName)
            let direct = item.shares.indices.filter {
                item.shares[$0].holderID == contact.id && item.shares[$0].via == nil && item.shares[$0].isLive
            }
            guard !direct.isEmpty else {
                throw VaultError.notShared(title: item.title, contact: contact.name)
            }
            var lost: [String] = []
            for index in direct {
                try sendNotice(
                    .revoke, share: item.shares[index].share, to: contact, logText: "Vault: a share revoked.", in: tx, now: now, using: &rng
                )
                item.shares[index].state = .revoked
                lost.append(item.shares[index].holder)
            }
            for index in item.shares.indices
            where item.shares[index].holderID == contact.id && item.shares[index].via != nil && item.shares[index].isLive {
                item.shares[index].state = .revoked
                lost.append(item.shares[index].holder)
            }
            item.exposed = true
            try tx.updateVaultItem(item.id, body: try item.encoded())
            try Vault.record(.revoked, item, detail: lost.joined(separator: ", "), in: tx, now: now)
            return lost
        }
    }

    /// Replaces the password of this side's own item with a generated one (the old one goes to the
    /// history) and pushes it to every holder that still has a copy. The person must still change
    /// it at the website, to the new one.
    ///
    /// - Returns: The new password and how many holders it was pushed to.
    /// - Throws: ``VaultError/notPermitted(_:)`` for a received copy.
    public static func rotate(
        _ title: String, request: PasswordRequest = .defaultCharacters, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> (password: GeneratedPassword, holders: Int) {
        let generated = try PasswordGenerator.generate(request, using: &rng)
        return try store.write { tx in
            try expire(in: tx, now: now)
            var item = try Vault.find(title, in: Vault.items(in: tx))
            if let received = item.received {
                throw VaultError.notPermitted("\(received.sender) shared this item with you; only its owner rotates it.")
            }
            try Vault.replacePassword(of: &item, with: generated.password, changedAt: now, generatedBits: generated.bits, in: tx, now: now)
            try tx.updateVaultItem(item.id, body: try item.encoded())
            try Vault.record(.passwordChanged, item, detail: "rotated", in: tx, now: now)
            let holders = try push(item, except: nil, in: tx, now: now, using: &rng)
            try Vault.record(.updated, item, detail: holdersDetail(holders), in: tx, now: now)
            return (generated, holders)
        }
    }
}
