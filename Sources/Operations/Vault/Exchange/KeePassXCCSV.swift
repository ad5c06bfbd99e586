import Foundation

/// KeePassXC's CSV export: a header row naming the columns (KeePassXC 2.7 writes `Group`, `Title`,
/// `Username`, `Password`, `URL`, `Notes`, `TOTP`, `Icon`, `Last Modified`, `Created`; 2.6 the
/// first six), then one entry per row, every field in double quotes, a quote doubled inside one,
/// line breaks kept inside quotes. Columns are found by their names, so either version reads.
enum KeePassXCCSV {
    static let header = ["Group", "Title", "Username", "Password", "URL", "Notes", "TOTP", "Icon", "Last Modified", "Created"]

    /// The entries of an export file.
    static func read(_ data: Data) throws -> [ExchangedItem] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw VaultError.invalid("The file is not UTF-8 text; export it again from KeePassXC as CSV.")
        }
        let rows = try CSV.rows(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        guard let names = rows.first, names.contains("Title"), names.contains("Password") else {
            throw VaultError.invalid("The file has no KeePassXC header row (\"Group\",\"Title\",…,\"Password\"); export it again as CSV.")
        }
        let column = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return rows.dropFirst().enumerated().compactMap { index, row in
            guard !(row.count == 1 && row[0].isEmpty) else { return nil }
            func field(_ name: String) -> String? {
                guard let position = column[name], position < row.count, !row[position].isEmpty else { return nil }
                return row[position]
            }
            var entry = ExchangedItem(
                position: "row \(index + 2)", title: field("Title") ?? "", username: field("Username"), url: field("URL"),
                notes: field("Notes"), password: field("Password"), totp: field("TOTP"),
                createdAt: ExchangeDates.parse(field("Created")), updatedAt: ExchangeDates.parse(field("Last Modified")))
            if let group = field("Group"), group.split(separator: "/").contains("Recycle Bin") {
                entry.refusal = "in KeePassXC's recycle bin"
            }
            return entry
        }
    }

    /// An export file of `items` in KeePassXC 2.7's columns, group `Root`.
    static func write(_ items: [VaultItem]) -> Data {
        var lines = [CSV.line(header)]
        for item in items {
            lines.append(
                CSV.line([
                    "Root", item.title, item.username ?? "", item.password, item.url ?? "", item.notes ?? "", item.totp ?? "", "0",
                    ExchangeDates.format(item.updatedAt), ExchangeDates.format(item.createdAt),
                ]))
        }
        return Data(lines.joined().utf8)
    }
}

/// RFC 4180 comma-separated values: reading any quoting, writing every field quoted.
enum CSV {
    /// The rows of `text`; a line break inside quotes belongs to the field.
    static func rows(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\r" where pending == "\n": continue
            case "\n", "\r":
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            default: field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw VaultError.invalid("The CSV file ends inside a quoted field; export it again.") }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }

    /// One line of quoted fields, ending in LF.
    static func line(_ fields: [String]) -> String {
        fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\n"
    }
}
