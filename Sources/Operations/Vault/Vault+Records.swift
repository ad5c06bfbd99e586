import Foundation
import Store

extension Vault {
    /// Every item, opened and decoded, in the order they were added.
    static func items(in reader: StoreReader) throws -> [VaultItem] {
        try reader.vaultItems().map { record in try VaultItem.decoding(record.id, record.body) }
    }

    /// The item titled `title` as the store compares names.
    static func find(_ title: String, in items: [VaultItem]) throws -> VaultItem {
        let key = VaultTitle.key(for: title)
        guard let item = items.first(where: { VaultTitle.key(for: $0.title) == key }) else { throw VaultError.notFound(title) }
        return item
    }

    /// The earlier passwords of an item, oldest first.
    static func history(of item: VaultItem, in reader: StoreReader) throws -> [HistoryEntry] {
        try reader.vaultHistory(of: item.id).map { record in try HistoryEntry.decoding(record.body) }
    }

    /// Moves the item's password to its history (the newest ``historyLimit`` kept) and puts
    /// `password` in its place; the caller saves the item.
    static func replacePassword(
        of item: inout VaultItem, with password: String, changedAt: Date, generatedBits: Double?, in tx: StoreTransaction, now: Date
    ) throws {
        try tx.appendVaultHistory(
            of: item.id, body: try HistoryEntry(password: item.password, retiredAt: now).encoded(), keeping: historyLimit)
        item.password = password
        item.passwordChangedAt = changedAt
        item.updatedAt = now
        item.generatedBits = generatedBits
        item.exposed = false
    }

    /// Appends an event about `item` to the log, in the caller's transaction.
    static func record(_ kind: VaultEventKind, _ item: VaultItem, detail: String? = nil, in tx: StoreTransaction, now: Date) throws {
        let body = VaultEvent.Body(time: now.timeIntervalSince1970, kind: kind, itemID: item.id, title: item.title, detail: detail)
        try tx.appendVaultEvent(try JSONEncoder().encode(body))
    }

    /// The check of a typed password: its estimate, the other items whose current or earlier
    /// password it is, and whether `item` (nil for a new one) used it before.
    static func check(_ password: String, for item: VaultItem?, among items: [VaultItem], in reader: StoreReader) throws -> PasswordCheck {
        var reusedBy: [String] = []
        for other in items where other.id != item?.id {
            let earlier = try history(of: other, in: reader).map(\.password)
            if ([other.password] + earlier).contains(where: { SecretComparison.equal($0, password) }) { reusedBy.append(other.title) }
        }
        let previouslyUsed = try item.map { item in
            try history(of: item, in: reader).contains { SecretComparison.equal($0.password, password) }
                || SecretComparison.equal(item.password, password)
        }
        return PasswordCheck(strength: .estimate(password), reusedBy: reusedBy, previouslyUsed: previouslyUsed ?? false)
    }
}

/// One earlier password of an item, sealed in the history table.
struct HistoryEntry: Codable {
    var password: String
    var retiredAt: Double

    init(password: String, retiredAt: Date) {
        self.password = password
        self.retiredAt = retiredAt.timeIntervalSince1970
    }

    func encoded() throws -> Data { try JSONEncoder().encode(self) }

    static func decoding(_ data: Data) throws -> HistoryEntry {
        guard let entry = try? JSONDecoder().decode(HistoryEntry.self, from: data) else { throw VaultError.unreadable }
        return entry
    }
}

/// Comparing secrets without an early exit, so the time taken says nothing about where two
/// passwords first differ.
enum SecretComparison {
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0 && left.count == right.count
    }
}
