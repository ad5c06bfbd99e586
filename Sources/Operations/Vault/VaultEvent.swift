public import Foundation

/// One entry of the vault's event log: what happened to which item, and when.
///
/// Sealed under the data key like the items (the item it names is inside the blob).
/// JSON (``OperationsJSON``): `{"detail","itemId","kind","sequence","time","title"}`.
public struct VaultEvent: Sendable, Hashable, Encodable {
    /// The log's order: grows with every event, never reused.
    public var sequence: Int64
    public var time: Date
    public var kind: VaultEventKind
    public var itemID: UUID
    /// The item's title when the event happened.
    public var title: String
    /// A short note (the contact shared with, the import's format), never a secret.
    public var detail: String?

    private enum CodingKeys: String, CodingKey {
        case sequence, time, kind
        case itemID = "itemId"
        case title, detail
    }

    /// Writes an absent detail as `null`, so every event has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(time, forKey: .time)
        try container.encode(kind, forKey: .kind)
        try container.encode(itemID.uuidString.lowercased(), forKey: .itemID)
        try container.encode(title, forKey: .title)
        try container.encode(detail, forKey: .detail)
    }
}

/// What happened to a vault item.
public enum VaultEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case created, edited, removed
    /// The password was changed (by an edit or a rotation); the old one went to the history.
    case passwordChanged = "password-changed"
    /// The password was shown in the clear.
    case revealed
    case copied
    /// A command ran with the password in its environment or on its stdin.
    case executed
    /// A TOTP code was computed from the item's secret.
    case code
    case imported, exported
    /// This side shared its item with a contact (the detail names the contact and permission).
    case shared
    /// This side shared a received copy onward, at the second level.
    case reshared
    /// A contact's gateway shared an item with this side.
    case received
    /// A received copy reached its expiry and was deleted; or a holder reported that its copy did.
    case expired
    /// This side revoked a share; or a received copy was taken back by the contact that shared it
    /// and deleted.
    case revoked
    /// A new password was pushed to the holders (`vault update`, a rotation, a holder's change).
    case updated
    /// A new password arrived: from the owner on a holder, from a holder allowed to change it on
    /// the owner.
    case changed
}

extension VaultEvent {
    /// The sealed form.
    struct Body: Codable {
        var time: Double
        var kind: VaultEventKind
        var itemID: UUID
        var title: String
        var detail: String?
    }

    /// The event a stored record holds.
    static func decoding(sequence: Int64, _ data: Data) throws -> VaultEvent {
        guard let body = try? JSONDecoder().decode(Body.self, from: data) else { throw VaultError.unreadable }
        return VaultEvent(
            sequence: sequence, time: Date(timeIntervalSince1970: body.time), kind: body.kind, itemID: body.itemID,
            title: body.title, detail: body.detail)
    }
}
