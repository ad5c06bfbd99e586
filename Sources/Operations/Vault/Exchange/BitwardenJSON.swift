import Foundation

/// Bitwarden's unencrypted JSON export, the fields the vault reads and writes: per item `name`,
/// `notes`, `type` (1 is a login), `login.username`, `login.password`, `login.uris[].uri`,
/// `login.totp`, `passwordHistory[].password`, `creationDate`, `revisionDate`; other fields are
/// ignored on import and written with Bitwarden's defaults on export.
enum BitwardenJSON {
    struct Export: Codable {
        var encrypted: Bool?
        var folders: [Folder]?
        var items: [Item]
    }

    struct Folder: Codable {
        var id: String
        var name: String
    }

    struct Item: Codable {
        var id: String?
        var organizationId: String?
        var folderId: String?
        var type: Int
        var reprompt: Int?
        var name: String?
        var notes: String?
        var favorite: Bool?
        var login: Login?
        var collectionIds: [String]?
        var passwordHistory: [HistoryEntry]?
        var revisionDate: String?
        var creationDate: String?
        var deletedDate: String?
    }

    struct Login: Codable {
        var uris: [URIEntry]?
        var username: String?
        var password: String?
        var totp: String?
    }

    struct URIEntry: Codable {
        var match: Int?
        var uri: String?
    }

    struct HistoryEntry: Codable {
        var lastUsedDate: String?
        var password: String
    }

    /// The entries of an export file.
    static func read(_ data: Data) throws -> [ExchangedItem] {
        let export: Export
        do {
            export = try JSONDecoder().decode(Export.self, from: data)
        } catch {
            throw VaultError.invalid("The file is not a Bitwarden JSON export (no \"items\" array of objects); export again as .json.")
        }
        guard export.encrypted != true else {
            throw VaultError.invalid("The Bitwarden export is encrypted; export it again as unencrypted .json.")
        }
        return export.items.enumerated().map { index, item in
            var entry = ExchangedItem(
                position: "item \(index + 1)", title: item.name ?? "", username: item.login?.username, url: item.login?.uris?.first?.uri,
                notes: item.notes, password: item.login?.password, totp: item.login?.totp,
                history: (item.passwordHistory ?? []).map(\.password).reversed(),
                createdAt: ExchangeDates.parse(item.creationDate), updatedAt: ExchangeDates.parse(item.revisionDate))
            if item.type != 1 { entry.refusal = "not a login (Bitwarden type \(item.type))" }
            if item.deletedDate != nil { entry.refusal = "in Bitwarden's trash" }
            return entry
        }
    }

    /// An export file of `items` with their earlier passwords (newest first, as Bitwarden keeps them).
    static func write(_ items: [(VaultItem, history: [String])]) throws -> Data {
        let export = Export(
            encrypted: false, folders: [],
            items: items.map { item, history in
                Item(
                    id: item.id.uuidString.lowercased(), organizationId: nil, folderId: nil, type: 1, reprompt: 0, name: item.title,
                    notes: item.notes, favorite: false,
                    login: Login(
                        uris: item.url.map { [URIEntry(match: nil, uri: $0)] } ?? [], username: item.username, password: item.password,
                        totp: item.totp),
                    collectionIds: nil,
                    passwordHistory: history.reversed().map { HistoryEntry(lastUsedDate: nil, password: $0) },
                    revisionDate: ExchangeDates.format(item.updatedAt), creationDate: ExchangeDates.format(item.createdAt), deletedDate: nil
                )
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(export)
    }
}
