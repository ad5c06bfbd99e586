public import Foundation

/// The file formats the vault imports and exports.
public enum VaultFormat: String, Sendable, Hashable, CaseIterable {
    /// Bitwarden's unencrypted JSON export (`{"encrypted": false, "folders", "items"}`).
    case bitwardenJSON = "bitwarden-json"
    /// KeePassXC's CSV export (a header row, then one entry per row, RFC 4180 quoting).
    case keepassxcCSV = "keepassxc-csv"
}

/// One entry read from an import file, before the vault checks it.
struct ExchangedItem: Sendable, Hashable {
    /// Where it is in the file ("item 3", "line 7"), for the skip reasons.
    var position: String
    var title: String
    var username: String?
    var url: String?
    var notes: String?
    var password: String?
    var totp: String?
    /// Earlier passwords, oldest first.
    var history: [String] = []
    var createdAt: Date?
    var updatedAt: Date?
    /// Why the format's reader already refuses it (not a login, in the recycle bin), or nil.
    var refusal: String?
}

/// What an import did: how many items it added and, for each entry it left out, why.
///
/// JSON: `{"imported", "skipped": [{"position","title","reason"}]}`.
public struct VaultImportResult: Sendable, Hashable, Encodable {
    public struct Skip: Sendable, Hashable, Encodable {
        /// Where the entry is in the file ("item 3", "line 7").
        public var position: String
        public var title: String
        public var reason: String
    }

    public var imported: Int
    public var skipped: [Skip]
}

/// How dates are written and read in both formats: ISO 8601 in UTC, with or without fractions.
enum ExchangeDates {
    static func parse(_ text: String?) -> Date? {
        guard let text, !text.isEmpty else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
