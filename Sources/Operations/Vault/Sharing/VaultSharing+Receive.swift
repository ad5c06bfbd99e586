public import Foundation
public import SMSCipher
public import Store

/// The receiving side of the vault's messages (docs/PROTOCOL.md §13), applied in the transaction
/// that opened each message. Every message is logged (status `typed`, a description without any
/// field of the item, and a note saying what happened), so the SIM copy of a part is recognised
/// like any SMS; a message about a share from a contact that has no say over it is refused, and
/// the note says so.
extension VaultSharing {
    /// Applies one opened vault message from `contact` (its session already saved).
    static func receive(
        _ message: VaultMessage, _ typed: ReceivedTyped, ciphertext: String, from contact: Contact, fingerprint: String?,
        in tx: StoreTransaction, now: Date
    ) throws -> AppliedMessage {
        let text: String
        let note: String
        switch message {
        case .part(let part):
            text = "\(Self.described(part.kind, part.share)), part \(part.index) of \(part.count)."
            note = try receive(part, from: contact, in: tx, now: now)
        case .notice(let notice):
            text = "\(Self.described(notice.kind, notice.share))."
            note = try receive(notice, from: contact, in: tx, now: now)
        }
        let id = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: .typed, text: text, ciphertext: ciphertext, error: note,
                fingerprint: fingerprint))
        return AppliedMessage(logID: id, contact: contact.name, content: .typed(typed))
    }

    /// A share's identifier as the log shows it.
    static func name(_ share: UInt32) -> String { "share " + String(share, radix: 16) }

    /// What a vault message is, as its log row's text says: "Vault share 4e6a60be" for a share
    /// (not "Vault share share …"), "Vault update for share 4e6a60be" for the others.
    static func described(_ kind: VaultMessage.Kind, _ share: UInt32) -> String {
        kind == .share ? "Vault \(name(share))" : "Vault \(kind) for \(name(share))"
    }

    /// Keeps a part until its record is whole, then applies the record.
    private static func receive(_ part: VaultPart, from contact: Contact, in tx: StoreTransaction, now: Date) throws -> String {
        let waiting = try tx.vaultParts().compactMap { record in
            (try? JSONDecoder().decode(WaitingPart.self, from: record.body)).map { (record.id, $0) }
        }.filter { $0.1.contactID == contact.id && $0.1.share == part.share && $0.1.kind == part.kind.rawValue }
        if waiting.contains(where: { $0.1.index == part.index }) {
            return "A second copy of part \(part.index) of \(part.count) of \(name(part.share)); dropped."
        }
        let received = WaitingPart(contactID: contact.id, part, at: now)
        let parts = waiting.compactMap { $0.1.part } + [part]
        guard parts.count == part.count, let bytes = VaultPart.join(parts) else {
            try tx.insertVaultPart(try JSONEncoder().encode(received))
            return "Part \(part.index) of \(part.count) of \(name(part.share)); \(parts.count) of \(part.count) received."
        }
        try tx.deleteVaultParts(waiting.map(\.0))
        guard let record = ShareRecord(kind: part.kind.rawValue, bytes: bytes) else {
            return "A \(part.kind) record that breaks the protocol's rules; refused."
        }
        switch record {
        case .share(let share): return try receive(share, id: part.share, from: contact, in: tx, now: now)
        case .password(let changedAt, let password):
            return try receive(password, changedAt: changedAt, kind: part.kind, share: part.share, from: contact, in: tx, now: now)
        case .reshared(let newShare, let permission, let expiresAt, let holder):
            let report = ItemShare(
                share: newShare, holderID: contact.id, holder: holder, permission: permission, level: 2, sharedAt: now,
                expiresAt: expiresAt, logID: 0, state: .held, via: contact.name)
            return try receive(report, reportedUnder: part.share, from: contact, in: tx, now: now)
        }
    }

    /// A whole share record: a new received copy, unless this share is held already.
    private static func receive(
        _ share: ShareRecord.Share, id: UInt32, from contact: Contact, in tx: StoreTransaction, now: Date
    ) throws -> String {
        let items = try Vault.items(in: tx)
        if items.contains(where: { $0.received?.share == id && $0.received?.senderID == contact.id }) {
            return "A second copy of \(name(id)), already held; dropped."
        }
        if items.contains(where: { item in item.shares.contains { $0.share == id && $0.holderID == contact.id } }) {
            return "\(contact.name) sent back a share of an item of this side; refused."
        }
        if let expiresAt = share.expiresAt, expiresAt <= now { return "A share that expired on its way; not kept." }
        guard let title = freeTitle(for: share.title, from: contact, among: items) else {
            return "A share whose title cannot be kept; refused."
        }
        let received = ReceivedShare(
            share: id, senderID: contact.id, sender: contact.name, permission: share.permission, level: share.level,
            sharedAt: share.sharedAt, expiresAt: share.expiresAt)
        // The fields come from an SMS: held to the same rules as a person's (lengths, no control characters, a TOTP URI).
        let username: String?
        let url: String?
        let notes: String?
        let password: String
        let totp: String?
        do {
            username = try Vault.Fields.optional(share.username.nilIfEmpty, .username)
            url = try Vault.Fields.optional(share.url.nilIfEmpty, .url)
            notes = try Vault.Fields.optional(share.notes.nilIfEmpty, .notes)
            password = try Vault.Fields.password(share.password)
            totp = try Vault.Fields.totp(share.totp.nilIfEmpty)
        } catch {
            return "A share with a field the vault refuses; refused."
        }
        var item = VaultItem(
            id: UUID(), title: title, username: username, url: url, notes: notes, password: password, totp: totp, createdAt: now,
            updatedAt: now, passwordChangedAt: share.sharedAt, generatedBits: nil, received: received)
        item.id = try tx.insertVaultItem(try item.encoded())
        try Vault.record(.received, item, detail: "\(contact.name), \(share.permission), level \(share.level)", in: tx, now: now)
        return "A vault item shared by \(contact.name) (\(share.permission), level \(share.level)); kept."
    }

    /// A notice: an expiry or removal a holder reports, or a revocation from the contact that
    /// shared a copy (which deletes it, revokes the copies shared onward from it, and reports).
    private static func receive(_ notice: VaultNotice, from contact: Contact, in tx: StoreTransaction, now: Date) throws -> String {
        let items = try Vault.items(in: tx)
        switch notice.kind {
        case .expired, .removed:
            guard var item = items.first(where: { $0.shares.contains { $0.share == notice.share && $0.holderID == contact.id } }),
                let index = item.shares.firstIndex(where: { $0.share == notice.share && $0.holderID == contact.id && $0.via == nil })
            else {
                return "A report about \(name(notice.share)), which this side never shared with \(contact.name); refused."
            }
            let expired = notice.kind == .expired
            item.shares[index].state = expired ? .expired : .removed
            try tx.updateVaultItem(item.id, body: try item.encoded())
            if expired { try Vault.record(.expired, item, detail: contact.name, in: tx, now: now) }
            return "\(contact.name)'s copy of a shared item was deleted (\(expired ? "expired" : "revoked"))."
        default:
            guard let item = items.first(where: { $0.received?.share == notice.share && $0.received?.senderID == contact.id }) else {
                return "A revocation of \(name(notice.share)), which \(contact.name) never shared with this side; refused."
            }
            var rng = SystemRandomNumberGenerator()
            try tx.deleteVaultItem(item.id)
            try Vault.record(.revoked, item, detail: contact.name, in: tx, now: now)
            for entry in item.shares where entry.isLive {
                guard let holder = try? tx.contact(id: entry.holderID), holder.number != nil else { continue }
                try sendNotice(
                    .revoke, share: entry.share, to: holder, logText: "Vault: a shared item was revoked.", in: tx, now: now, using: &rng)
            }
            if contact.number != nil {
                try sendNotice(
                    .removed, share: notice.share, to: contact, logText: "Vault: a revoked item was deleted.", in: tx, now: now, using: &rng
                )
            }
            return "\(contact.name) revoked a shared item; the copy and the copies shared onward from it were deleted."
        }
    }

    /// The shared title, or the first of "TITLE (from NAME)", "TITLE (from NAME) 2", … that no
    /// item has; nil when none is a valid title.
    static func freeTitle(for title: String, from contact: Contact, among items: [VaultItem]) -> String? {
        let taken = Set(items.map { VaultTitle.key(for: $0.title) })
        let candidates = [title, "\(title) (from \(contact.name))"] + (2...9).map { "\(title) (from \(contact.name)) \($0)" }
        for candidate in candidates {
            guard let valid = try? VaultTitle.validate(candidate), !taken.contains(valid.key) else { continue }
            return valid.title
        }
        return nil
    }
}

/// A received part waiting for the rest of its record, sealed in the store.
struct WaitingPart: Codable {
    var contactID: UUID
    var share: UInt32
    var kind: UInt8
    var index: Int
    var count: Int
    var segment: [UInt8]
    var receivedAt: Double

    init(contactID: UUID, _ part: VaultPart, at time: Date) {
        self.contactID = contactID
        share = part.share
        kind = part.kind.rawValue
        index = part.index
        count = part.count
        segment = part.segment
        receivedAt = time.timeIntervalSince1970
    }

    var part: VaultPart? {
        VaultMessage.Kind(rawValue: kind).flatMap { VaultPart(kind: $0, share: share, index: index, count: count, segment: segment) }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
