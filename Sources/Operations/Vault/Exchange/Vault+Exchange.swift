public import Foundation
public import Store
import SystemCalls

extension Vault {
    /// Imports the entries of an export file of `format` in one transaction: each becomes an item,
    /// or is skipped with a reason (not a login, no password, a title the vault refuses, already
    /// in the vault, another item with its title). Importing the same file again adds nothing.
    ///
    /// - Throws: ``VaultError/invalid(_:)`` when the file is not of the format.
    @discardableResult
    public static func importItems(_ data: Data, format: VaultFormat, into store: UnlockedStore, now: Date) throws -> VaultImportResult {
        let entries =
            switch format {
            case .bitwardenJSON: try BitwardenJSON.read(data)
            case .keepassxcCSV: try KeePassXCCSV.read(data)
            }
        return try store.write { tx in
            var items = try items(in: tx)
            var imported = 0
            var skipped: [VaultImportResult.Skip] = []
            for entry in entries {
                do {
                    let item = try importable(entry, among: items, now: now)
                    var stored = item
                    stored.id = try tx.insertVaultItem(try item.encoded())
                    for password in entry.history.suffix(historyLimit) {
                        try tx.appendVaultHistory(
                            of: stored.id, body: try HistoryEntry(password: password, retiredAt: item.passwordChangedAt).encoded(),
                            keeping: historyLimit)
                    }
                    try record(.imported, stored, detail: format.rawValue, in: tx, now: now)
                    items.append(stored)
                    imported += 1
                } catch let reason as SkipReason {
                    skipped.append(VaultImportResult.Skip(position: entry.position, title: entry.title, reason: reason.sentence))
                }
            }
            return VaultImportResult(imported: imported, skipped: skipped)
        }
    }

    /// Every item in `format`, each export logged. The bytes hold every password in the clear.
    /// Received copies whose permission does not allow showing the password are left out.
    public static func export(format: VaultFormat, from store: UnlockedStore, now: Date) throws -> Data {
        try store.write { tx in
            try VaultSharing.expire(in: tx, now: now)
            let items = try items(in: tx).filter { $0.received.map { $0.permission == .useChangeAndShare } ?? true }
                .sorted { VaultTitle.key(for: $0.title) < VaultTitle.key(for: $1.title) }
            for item in items { try record(.exported, item, detail: format.rawValue, in: tx, now: now) }
            switch format {
            case .bitwardenJSON:
                return try BitwardenJSON.write(try items.map { item in (item, try history(of: item, in: tx).map(\.password)) })
            case .keepassxcCSV:
                return KeePassXCCSV.write(items)
            }
        }
    }

    /// Writes an export to a new file of mode 0600 (never over an existing file or through a link).
    ///
    /// - Throws: ``VaultError/invalid(_:)`` when the file exists or cannot be written.
    public static func writeExport(_ data: Data, to path: String) throws {
        do {
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
            try file.writeAll(Array(data))
        } catch let error where error.code == EEXIST {
            throw VaultError.invalid("\(path) already exists; choose a new file name (an export never overwrites a file).")
        } catch {
            throw VaultError.invalid("The export could not be written to \(path) (\(error)); check the directory.")
        }
    }

    /// Why an entry of an import file is left out.
    private struct SkipReason: Error {
        var sentence: String
    }

    /// The item `entry` becomes, or the reason it is skipped.
    private static func importable(_ entry: ExchangedItem, among items: [VaultItem], now: Date) throws -> VaultItem {
        if let refusal = entry.refusal { throw SkipReason(sentence: refusal) }
        guard let password = entry.password, !password.isEmpty else { throw SkipReason(sentence: "no password") }
        do {
            let (title, key) = try VaultTitle.validate(entry.title)
            let username = try Fields.optional(entry.username, .username)
            let url = try Fields.optional(entry.url, .url)
            if let existing = items.first(where: { VaultTitle.key(for: $0.title) == key }) {
                let same =
                    SecretComparison.equal(existing.password, password) && existing.username == username && existing.url == url
                throw SkipReason(sentence: same ? "already in the vault" : "another item is titled \"\(existing.title)\"")
            }
            let changed = entry.updatedAt ?? now
            return VaultItem(
                id: UUID(), title: title, username: username, url: url, notes: try Fields.optional(entry.notes, .notes),
                password: try Fields.password(password), totp: try Fields.totp(totpURI(entry.totp)),
                createdAt: entry.createdAt ?? now, updatedAt: changed, passwordChangedAt: changed)
        } catch let error as SkipReason {
            throw error
        } catch {
            throw SkipReason(sentence: "\(error)")
        }
    }

    /// A TOTP field as a URI: Bitwarden and KeePassXC may hold a bare Base32 secret.
    private static func totpURI(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.lowercased().hasPrefix("otpauth://") { return value }
        return "otpauth://totp/imported?secret=" + value.replacingOccurrences(of: " ", with: "").uppercased()
    }
}
