import Foundation
import Operations
import Store
import TestSupport
import Testing

/// Import and export: Bitwarden JSON and KeePassXC CSV files as those programs write them, skip
/// reasons, no duplicates on a second import, round trips through both formats, 0600 files.
@Suite("Vault import and export")
struct VaultExchangeTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    /// The fields a round trip must keep, per title.
    static func fields(_ store: UnlockedStore) throws -> [String: [String?]] {
        var result: [String: [String?]] = [:]
        for summary in try Vault.list(in: store) {
            let view = try Vault.item(titled: summary.title, reveal: true, in: store, now: now)
            result[summary.title] = [summary.username, summary.url, view.notes, view.password, summary.hasTOTP ? "totp" : nil]
        }
        return result
    }

    static let expected: [String: [String?]] = [
        "Mail": ["me@example.org", "https://mail.example.org", nil, "m4il-Pass-2024", nil],
        "Žluťoučký kůň 🐎": [nil, nil, "Ünïcödé\nnotes, \"quoted\"", "pässwörd-ü-🔑", "totp"],
    ]

    @Test(
        "A Bitwarden export imports its logins, skips the rest with reasons, and a second import adds nothing",
        arguments: StoreBackendKind.allCases)
    func bitwardenImport(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            let data = Data(VaultExchangeFixtures.bitwarden.utf8)
            let first = try Vault.importItems(data, format: .bitwardenJSON, into: store, now: Self.now)
            #expect(first.imported == 2)
            #expect(first.skipped.map(\.reason) == ["not a login (Bitwarden type 2)", "no password", "not a login (Bitwarden type 3)"])
            #expect(try Self.fields(store) == Self.expected)
            // The earlier passwords came along: typing one again is flagged as used before.
            let check = try Vault.edit(titled: "Mail", VaultChanges(password: "m4il-Pass-2022"), in: store, now: Self.now).check
            #expect(check?.previouslyUsed == true)
            #expect(try Vault.code(titled: "Žluťoučký kůň 🐎", in: store, now: Self.now).code.count == 6)

            let again = try Vault.importItems(data, format: .bitwardenJSON, into: store, now: Self.now)
            #expect(again.imported == 0)
            #expect(again.skipped.map(\.reason).contains("already in the vault"))
            #expect(again.skipped.map(\.reason).contains("another item is titled \"Mail\""))
            #expect(try Vault.list(in: store).count == 2)
        }
    }

    @Test(
        "A KeePassXC CSV imports with its quoting, line breaks and Unicode; the recycle bin is skipped",
        arguments: StoreBackendKind.allCases)
    func keepassxcImport(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            let result = try Vault.importItems(
                Data(VaultExchangeFixtures.keepassxc.utf8), format: .keepassxcCSV, into: store, now: Self.now)
            #expect(result.imported == 2)
            #expect(result.skipped.map(\.reason) == ["in KeePassXC's recycle bin", "no password"])
            #expect(result.skipped.map(\.position) == ["row 4", "row 5"])
            var expected = Self.expected
            expected["Žluťoučký kůň 🐎"] = [nil, nil, "multi\nline, \"notes\"", "pässwörd-\"quoted\",🔑", "totp"]
            #expect(try Self.fields(store) == expected)
            #expect(
                try Vault.importItems(Data(VaultExchangeFixtures.keepassxc.utf8), format: .keepassxcCSV, into: store, now: Self.now)
                    .imported == 0)
        }
    }

    @Test("Round trips through both formats keep every field", arguments: VaultFormat.allCases)
    func roundTrip(format: VaultFormat) throws {
        try TestStore.withAccount { _, _, source in
            try Vault.importItems(Data(VaultExchangeFixtures.bitwarden.utf8), format: .bitwardenJSON, into: source, now: Self.now)
            let exported = try Vault.export(format: format, from: source, now: Self.now)
            try TestStore.withAccount { _, _, target in
                let result = try Vault.importItems(exported, format: format, into: target, now: Self.now)
                #expect(result.imported == 2 && result.skipped.isEmpty)
                #expect(try Self.fields(target) == Self.expected)
            }
            #expect(try Vault.log(in: source).filter { $0.kind == .exported }.count == 2)
        }
    }

    @Test(
        "The Bitwarden export has Bitwarden's shape: unencrypted, logins of type 1, history newest first",
        arguments: StoreBackendKind.allCases)
    func bitwardenShape(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            try Vault.importItems(Data(VaultExchangeFixtures.bitwarden.utf8), format: .bitwardenJSON, into: store, now: Self.now)
            let data = try Vault.export(format: .bitwardenJSON, from: store, now: Self.now)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(object?["encrypted"] as? Bool == false)
            let items = object?["items"] as? [[String: Any]] ?? []
            let mail = items.first { $0["name"] as? String == "Mail" }
            #expect(mail?["type"] as? Int == 1)
            let login = mail?["login"] as? [String: Any]
            #expect(login?["password"] as? String == "m4il-Pass-2024")
            let history = (mail?["passwordHistory"] as? [[String: Any]])?.compactMap { $0["password"] as? String }
            #expect(history == ["m4il-Pass-2023", "m4il-Pass-2022"])
        }
    }

    @Test("An export file is created with mode 0600 and never over an existing file")
    func exportFile() throws {
        try withTemporaryDirectory { root in
            let path = root.appendingPathComponent("export.json").path
            try Vault.writeExport(Data("{}".utf8), to: path)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(throws: VaultError.self) { try Vault.writeExport(Data("{}".utf8), to: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}")
        }
    }

    @Test("Files of the wrong kind are refused as a whole", arguments: StoreBackendKind.allCases)
    func wrongFiles(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            for (text, format) in [
                ("not json", VaultFormat.bitwardenJSON), (#"{"encrypted": true, "items": []}"#, .bitwardenJSON),
                ("a,b\n1,2\n", .keepassxcCSV), ("\"Title\",\"Password\"\n\"open", .keepassxcCSV),
            ] {
                #expect(throws: VaultError.self) { try Vault.importItems(Data(text.utf8), format: format, into: store, now: Self.now) }
            }
        }
    }
}
