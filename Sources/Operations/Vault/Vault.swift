public import Foundation
public import Store

/// The credential vault (docs/VAULT.md): items kept sealed under the data key, their earlier
/// passwords, and an event log. Each operation is one store transaction that opens the items it
/// needs; titles are compared there, as the store compares names.
public enum Vault {
    /// How many earlier passwords an item keeps.
    public static let historyLimit = 10

    /// Adds an item; a typed password is checked against every item and its history.
    ///
    /// - Throws: ``VaultError/titleTaken(_:)``, ``VaultError/invalid(_:)``; the store's errors.
    @discardableResult
    public static func add(_ draft: VaultDraft, to store: UnlockedStore, now: Date) throws -> VaultSaved {
        let (title, key) = try VaultTitle.validate(draft.title)
        try refuseLeadingDash(title)
        var item = VaultItem(
            id: UUID(), title: title, username: try Fields.optional(draft.username, .username),
            url: try Fields.optional(draft.url, .url), notes: try Fields.optional(draft.notes, .notes),
            password: try Fields.password(draft.password), totp: try Fields.totp(draft.totp),
            createdAt: now, updatedAt: now, passwordChangedAt: now, generatedBits: draft.generatedBits)
        return try store.write { tx in
            let items = try items(in: tx)
            if items.contains(where: { VaultTitle.key(for: $0.title) == key }) { throw VaultError.titleTaken(title) }
            let check = draft.generatedBits == nil ? try check(item.password, for: nil, among: items, in: tx) : nil
            item.id = try tx.insertVaultItem(try item.encoded())
            try record(.created, item, in: tx, now: now)
            return VaultSaved(summary: VaultItemSummary(item), check: check)
        }
    }

    /// Every item, sorted by title (as the store compares names), without secrets.
    /// Received copies whose expiry has come are deleted first.
    public static func list(in store: UnlockedStore, now: Date = Date()) throws -> [VaultItemSummary] {
        try store.write { reader in
            try VaultSharing.expire(in: reader, now: now)
            return try items(in: reader).sorted { VaultTitle.key(for: $0.title) < VaultTitle.key(for: $1.title) }
                .map(VaultItemSummary.init)
        }
    }

    /// One item for showing: the password only when `reveal` is set, which is logged.
    public static func item(titled title: String, reveal: Bool, in store: UnlockedStore, now: Date) throws -> VaultItemView {
        try store.write { tx in
            try VaultSharing.expire(in: tx, now: now)
            let item = try find(title, in: items(in: tx))
            if reveal, let received = item.received, received.permission != .useChangeAndShare {
                throw VaultError.notPermitted(
                    "\(received.sender) shared this item with you for \(received.permission); it can be copied, run with or used for codes, not shown."
                )
            }
            if reveal { try record(.revealed, item, in: tx, now: now) }
            return VaultItemView(
                summary: VaultItemSummary(item), notes: item.notes, password: reveal ? item.password : nil,
                passwordLength: item.password.count, strength: strength(of: item))
        }
    }

    /// Changes an item's fields; a new password moves the old one to the item's history (the
    /// newest ``historyLimit`` are kept) and, when typed, is checked like a new item's.
    @discardableResult
    public static func edit(titled title: String, _ changes: VaultChanges, in store: UnlockedStore, now: Date) throws -> VaultSaved {
        guard !changes.isEmpty else { throw VaultError.invalid("Nothing to change was given; give at least one field to change.") }
        let newTitle = try changes.title.map { raw throws in try VaultTitle.validate(raw) }
        if let newTitle { try refuseLeadingDash(newTitle.title) }
        return try store.write { tx in
            try VaultSharing.expire(in: tx, now: now)
            let items = try items(in: tx)
            var item = try find(title, in: items)
            if let received = item.received, received.permission != .useChangeAndShare || !changes.onlyPassword {
                throw VaultError.notPermitted(
                    "\(received.sender) shared this item with you for \(received.permission); only its password may change, and only with use+change+share."
                )
            }
            if let newTitle {
                if items.contains(where: { $0.id != item.id && VaultTitle.key(for: $0.title) == newTitle.key }) {
                    throw VaultError.titleTaken(newTitle.title)
                }
                item.title = newTitle.title
            }
            if let username = changes.username { item.username = try Fields.optional(username, .username) }
            if let url = changes.url { item.url = try Fields.optional(url, .url) }
            if let notes = changes.notes { item.notes = try Fields.optional(notes, .notes) }
            if let totp = changes.totp { item.totp = try Fields.totp(totp.isEmpty ? nil : totp) }
            var check: PasswordCheck?
            if let password = changes.password {
                let password = try Fields.password(password)
                if changes.generatedBits == nil { check = try self.check(password, for: item, among: items, in: tx) }
                try tx.appendVaultHistory(
                    of: item.id, body: try HistoryEntry(password: item.password, retiredAt: now).encoded(), keeping: historyLimit)
                item.password = password
                item.passwordChangedAt = now
                item.generatedBits = changes.generatedBits
                item.exposed = false
            }
            if changes.markExposed { item.exposed = true }
            item.updatedAt = now
            try tx.updateVaultItem(item.id, body: try item.encoded())
            try record(changes.password == nil ? .edited : .passwordChanged, item, in: tx, now: now)
            return VaultSaved(summary: VaultItemSummary(item), check: check)
        }
    }

    /// Deletes an item and its earlier passwords (the event log keeps that it was removed).
    public static func remove(titled title: String, from store: UnlockedStore, now: Date) throws {
        try store.write { tx in
            try VaultSharing.expire(in: tx, now: now)
            let item = try find(title, in: items(in: tx))
            try tx.deleteVaultItem(item.id)
            try record(.removed, item, in: tx, now: now)
        }
    }

    /// The item's strength: the generator's figure when it made the password, else the estimate.
    static func strength(of item: VaultItem) -> PasswordStrength {
        item.generatedBits.map { PasswordStrength(bits: $0, source: .generated) } ?? PasswordStrength.estimate(item.password)
    }

    /// Refuses a new title that starts with a dash: a command line reads it as options, so no
    /// command naming the item would work as typed (an import keeps such a title).
    private static func refuseLeadingDash(_ title: String) throws(VaultError) {
        if title.hasPrefix("-") {
            throw .invalid(
                "The title \"\(title)\" starts with \"-\", which a command line reads as an option; choose a title that starts otherwise.")
        }
    }
}
