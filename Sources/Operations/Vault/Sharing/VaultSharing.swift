public import Foundation
import SMSCipher
public import Store

/// Sharing vault items with paired contacts over SMS (docs/VAULT.md, "Sharing over SMS";
/// docs/PROTOCOL.md §13): the owner's side. A share is sealed and queued in one transaction with
/// the item's record of it, like a text (``Messages/queue(_:to:transliterate:maxParts:by:address:store:now:using:)``),
/// and re-sent until the holder's gateway acknowledges it when the contact has acknowledgements on.
public enum VaultSharing {
    /// Shares the item titled `title` with a paired contact, which must have a number.
    ///
    /// - Parameters:
    ///   - permission: What the holder may do (docs/VAULT.md, the permission table).
    ///   - expiresAt: When the holder's gateway deletes its copy; nil: never.
    /// - Returns: The new holder, as ``shares(of:in:)`` lists it.
    /// - Throws: ``VaultError/notPermitted(_:)`` for a received copy that may not be shared
    ///   onward; ``VaultError/invalid(_:)`` for an expiry in the past or an item too long for 16
    ///   messages; the contact's and the store's errors.
    @discardableResult
    public static func share(
        _ title: String, with contactName: String, permission: SharePermission, expiresAt: Date?, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> ShareHolder {
        if let expiresAt, expiresAt <= now {
            throw VaultError.invalid("The expiry is not in the future; give a later time or a duration.")
        }
        return try store.write { tx in
            try expire(in: tx, now: now)
            var item = try Vault.find(title, in: Vault.items(in: tx))
            let level = try onwardLevel(of: item, permission: permission)
            let contact = try tx.contact(named: contactName).requiringNumber(for: .message, in: tx)
            if let received = item.received, received.senderID == contact.id {
                throw VaultError.notPermitted("\(contact.name) shared this item with you; it cannot be shared back to them.")
            }
            let share = UInt32.random(in: 1...UInt32.max, using: &rng)
            let record = ShareRecord.share(
                ShareRecord.Share(
                    permission: permission, level: level, sharedAt: now, expiresAt: expiresAt, title: item.title,
                    username: item.username ?? "", url: item.url ?? "", notes: item.notes ?? "", password: item.password,
                    totp: item.totp ?? ""))
            let logID = try sendRecord(
                record, kind: .share, share: share, to: contact, logText: "Vault: \"\(item.title)\" shared (\(permission)).", in: tx,
                now: now, using: &rng)
            let entry = ItemShare(
                share: share, holderID: contact.id, holder: contact.name, permission: permission, level: level, sharedAt: now,
                expiresAt: expiresAt, logID: logID, state: .sending)
            item.shares.append(entry)
            try tx.updateVaultItem(item.id, body: try item.encoded())
            if let received = item.received, let owner = try? tx.contact(id: received.senderID), owner.number != nil {
                // The owner lists every holder, indirect ones too: tell it whom this copy went to.
                let report = ShareRecord.reshared(share: share, permission: permission, expiresAt: expiresAt, holder: contact.name)
                try sendRecord(
                    report, kind: .reshared, share: received.share, to: owner, logText: "Vault: a shared item was shared onward.",
                    in: tx, now: now, using: &rng)
            }
            try Vault.record(item.received == nil ? .shared : .reshared, item, detail: "\(contact.name), \(permission)", in: tx, now: now)
            return ShareHolder(entry, acknowledged: false)
        }
    }

    /// The holders of the item titled `title`: this side's shares, with whether each was
    /// acknowledged.
    public static func shares(of title: String, in store: UnlockedStore) throws -> [ShareHolder] {
        try store.read { reader in
            let item = try Vault.find(title, in: Vault.items(in: reader))
            return try item.shares.map { entry in
                let status = try? reader.logEntry(id: entry.logID).status
                return ShareHolder(entry, acknowledged: status == .acknowledged)
            }
        }
    }

    /// The level a share of `item` with `permission` gets: 1 for this side's own item, 2 for a
    /// level-1 copy whose permission allows sharing onward (with `use` or `use+share` only).
    static func onwardLevel(of item: VaultItem, permission: SharePermission) throws -> Int {
        guard let received = item.received else { return 1 }
        guard received.permission != .use else {
            throw VaultError.notPermitted("This copy was shared with you for use only; it cannot be shared onward.")
        }
        guard received.level == 1 else {
            throw VaultError.notPermitted("This copy was shared with you at the second level; it cannot be shared further.")
        }
        guard permission != .useChangeAndShare else {
            throw VaultError.notPermitted("A copy shared onward allows use or use+share at most; give one of those.")
        }
        return 2
    }

    /// Sends `record` as the parts of a message of `kind` about `share`; returns the log row's id.
    ///
    /// - Throws: ``VaultError/invalid(_:)`` when it needs more than 16 messages.
    static func sendRecord(
        _ record: ShareRecord, kind: VaultMessage.Kind, share: UInt32, to contact: Contact, logText: String, in tx: StoreTransaction,
        now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> Int64 {
        guard let parts = VaultPart.split(record.bytes, kind: kind, share: share) else {
            throw VaultError.invalid("The item is too long to share in \(VaultPart.maxCount) messages; shorten its notes and try again.")
        }
        return try send(parts.map { VaultMessage.part($0).payload }, to: contact, logText: logText, in: tx, now: now, using: &rng)
    }

    /// Sends a notice (revoke, expired, removed) about `share`.
    static func sendNotice(
        _ kind: VaultMessage.Kind, share: UInt32, to contact: Contact, logText: String, in tx: StoreTransaction, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws {
        let notice = VaultNotice(kind: kind, share: share)
        _ = try send([VaultMessage.notice(notice).payload], to: contact, logText: logText, in: tx, now: now, using: &rng)
    }

    /// Seals `payloads` for `contact` at consecutive positions, saves the state, logs them as one
    /// outgoing message (`logText`, never a secret) and queues one outbox row each, awaiting
    /// acknowledgement when the contact has acknowledgements on; returns the log row's id.
    static func send(
        _ payloads: [TypedPayload], to contact: Contact, logText: String, in tx: StoreTransaction, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> Int64 {
        var session = try tx.requirePairedSession(for: contact)
        var sealed: [Sealed] = []
        for payload in payloads {
            let next = try session.sealing(.typed(payload), using: &rng)
            session = next.session
            sealed.append(next)
        }
        try tx.saveSession(session, for: contact)
        let logID = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .outgoing, contact: contact, status: .queued, text: logText,
                ciphertext: sealed.map(\.ciphertext).joined(separator: "\n")))
        for message in sealed {
            let position = SealedPosition(
                epoch: message.session.epoch, position: message.position, awaitsAcknowledgement: contact.acknowledgements)
            try tx.enqueueOutbox(message.ciphertext, to: contact, messageID: logID, sealedAt: position, now: now)
        }
        try tx.recordSent(to: contact, at: now)
        return logID
    }
}

extension ShareHolder {
    init(_ entry: ItemShare, acknowledged: Bool) {
        self.init(
            holder: entry.holder, permission: entry.permission, level: entry.level, sharedAt: entry.sharedAt,
            expiresAt: entry.expiresAt, state: entry.state == .sending && acknowledged ? .held : entry.state,
            acknowledged: acknowledged, via: entry.via)
    }
}
