public import Foundation

/// Where a received copy of a vault item came from (docs/VAULT.md, "Sharing over SMS"): kept in
/// the item's sealed blob on the holder's side. The holder's smsgw enforces the permission.
public struct ReceivedShare: Sendable, Hashable, Codable {
    /// The share's identifier, drawn by its sender (docs/PROTOCOL.md §13.1).
    public var share: UInt32
    /// The contact that sent it: the owner at level 1, the re-sharing holder at level 2.
    public var senderID: UUID
    /// That contact's name when the share arrived.
    public var sender: String
    public var permission: SharePermission
    /// 1 from the owner, 2 from a level-1 holder.
    public var level: Int
    public var sharedAt: Date
    /// When the holder's gateway deletes the copy by itself; nil: never.
    public var expiresAt: Date?
}

/// One share of an item this side sent: to whom, with what permission, and what became of it.
public struct ItemShare: Sendable, Hashable, Codable {
    /// The share's identifier, drawn at random when it was sent.
    public var share: UInt32
    public var holderID: UUID
    /// The holder's contact name when it was shared.
    public var holder: String
    public var permission: SharePermission
    /// 1 for the owner's own shares.
    public var level: Int
    public var sharedAt: Date
    public var expiresAt: Date?
    /// The log row of the share's messages: acknowledged once every part was.
    public var logID: Int64
    public var state: ShareState
    /// For a second-level holder the owner learned of: the level-1 holder that shared onward (the
    /// owner never sends to this holder; `holderID` is the level-1 holder's contact).
    public var via: String? = nil

    /// Whether the holder still has the copy, as far as this side knows.
    var isLive: Bool { state == .sending || state == .held }
}

/// What became of a share (docs/VAULT.md: sending → held → revoked | expired).
public enum ShareState: String, Sendable, Hashable, Codable {
    /// Queued or sent, not yet acknowledged by the holder's gateway.
    case sending
    /// The holder's gateway acknowledged every part.
    case held
    /// The holder's gateway reported that the copy expired and was deleted.
    case expired
    /// This side sent a revocation (or the holder it went through was revoked).
    case revoked
    /// The holder's gateway reported that the copy was deleted after a revocation.
    case removed
}

extension SharePermission: Codable {}

/// One holder of an item as `vault shares` lists it.
///
/// JSON (``OperationsJSON``): `{"acknowledged","expiresAt","holder","level","permission",
/// "sharedAt","state","via"}`, `expiresAt` null when the share never expires, `via` null for a
/// direct holder.
public struct ShareHolder: Sendable, Hashable, Encodable {
    public var holder: String
    public var permission: SharePermission
    public var level: Int
    public var sharedAt: Date
    public var expiresAt: Date?
    public var state: ShareState
    /// Whether the holder's gateway acknowledged every part of the share.
    public var acknowledged: Bool
    /// For an indirect holder: the direct holder that shared onward and reported it.
    public var via: String?

    private enum CodingKeys: String, CodingKey { case holder, permission, level, sharedAt, expiresAt, state, acknowledged, via }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(holder, forKey: .holder)
        try container.encode(permission.description, forKey: .permission)
        try container.encode(level, forKey: .level)
        try container.encode(sharedAt, forKey: .sharedAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(state, forKey: .state)
        try container.encode(acknowledged, forKey: .acknowledged)
        try container.encode(via, forKey: .via)
    }
}
