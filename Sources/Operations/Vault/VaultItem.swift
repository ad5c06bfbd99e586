public import Foundation

/// One credential in the vault, decrypted: what a person keeps for a website or a service.
///
/// Stored as one sealed blob (``VaultItem/Body`` as JSON) under the data key, bound to its row;
/// nothing of it is in the clear. Its description and mirror never show the password or notes.
public struct VaultItem: Sendable, Hashable, Identifiable {
    public var id: UUID
    /// Unique under the store's comparison of names (trimmed, NFC, case- and width-folded).
    public var title: String
    public var username: String?
    /// The website or service address, as given.
    public var url: String?
    public var notes: String?
    public var password: String
    /// An `otpauth://totp/...` URI for `vault code`, if the item has a second factor.
    public var totp: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// When the password was set; the audit calls an item old from this time.
    public var passwordChangedAt: Date
    /// The generator's entropy in bits when it made the password; nil for a typed password.
    public var generatedBits: Double?
    /// Someone who no longer should may know the password (a revoked share, a rotation or an
    /// import said so); cleared when the password changes.
    public var exposed = false
    /// Where this copy came from, when another gateway shared it; nil for this side's own item.
    public var received: ReceivedShare? = nil
    /// The shares of this item this side sent.
    public var shares: [ItemShare] = []
}

extension VaultItem: CustomStringConvertible, CustomReflectable {
    /// Never shows the password, the notes or the TOTP secret.
    public var description: String { "VaultItem(title: \(title))" }
    /// Keeps `dump` and debuggers from printing secrets.
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "title": title]) }
}

extension VaultItem {
    /// The sealed form: every field but the row's identifier, times as seconds since 1970.
    struct Body: Codable {
        var title: String
        var username: String?
        var url: String?
        var notes: String?
        var password: String
        var totp: String?
        var createdAt: Double
        var updatedAt: Double
        var passwordChangedAt: Double
        var generatedBits: Double?
        var exposed: Bool?
        var received: ReceivedShare?
        var shares: [ItemShare]?
    }

    init(id: UUID, body: Body) {
        self.init(
            id: id, title: body.title, username: body.username, url: body.url, notes: body.notes,
            password: body.password, totp: body.totp,
            createdAt: Date(timeIntervalSince1970: body.createdAt),
            updatedAt: Date(timeIntervalSince1970: body.updatedAt),
            passwordChangedAt: Date(timeIntervalSince1970: body.passwordChangedAt), generatedBits: body.generatedBits,
            exposed: body.exposed ?? false, received: body.received, shares: body.shares ?? [])
    }

    /// The bytes the store seals.
    func encoded() throws -> Data {
        try JSONEncoder().encode(
            Body(
                title: title, username: username, url: url, notes: notes, password: password, totp: totp,
                createdAt: createdAt.timeIntervalSince1970, updatedAt: updatedAt.timeIntervalSince1970,
                passwordChangedAt: passwordChangedAt.timeIntervalSince1970, generatedBits: generatedBits,
                exposed: exposed, received: received, shares: shares.isEmpty ? nil : shares))
    }

    /// The item a stored record holds.
    ///
    /// - Throws: ``VaultError/unreadable`` when the blob opened but is not an item.
    static func decoding(_ id: UUID, _ data: Data) throws -> VaultItem {
        guard let body = try? JSONDecoder().decode(Body.self, from: data) else { throw VaultError.unreadable }
        return VaultItem(id: id, body: body)
    }
}
