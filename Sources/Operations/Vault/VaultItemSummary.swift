public import Foundation

/// A vault item as a list shows it: never its password, notes or TOTP secret.
///
/// JSON (``OperationsJSON``): `{"createdAt","hasNotes","hasTotp","passwordChangedAt","title",
/// "updatedAt","url","username","owner","permission","level","expiresAt"}`, every key always
/// present, `null` where a value is absent (the last four for this side's own items).
public struct VaultItemSummary: Sendable, Hashable, Encodable {
    public var title: String
    public var username: String?
    public var url: String?
    public var hasNotes: Bool
    public var hasTOTP: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var passwordChangedAt: Date
    /// For a received copy: the contact that shared it, the permission, the level and the expiry.
    public var received: ReceivedShare?

    init(_ item: VaultItem) {
        title = item.title
        username = item.username
        url = item.url
        hasNotes = item.notes != nil
        hasTOTP = item.totp != nil
        createdAt = item.createdAt
        updatedAt = item.updatedAt
        passwordChangedAt = item.passwordChangedAt
        received = item.received
    }

    private enum CodingKeys: String, CodingKey {
        case title, username, url, hasNotes
        case hasTOTP = "hasTotp"
        case createdAt, updatedAt, passwordChangedAt, owner, permission, level, expiresAt
    }

    /// Writes absent values as `null`, so every item has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(username, forKey: .username)
        try container.encode(url, forKey: .url)
        try container.encode(hasNotes, forKey: .hasNotes)
        try container.encode(hasTOTP, forKey: .hasTOTP)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(passwordChangedAt, forKey: .passwordChangedAt)
        try container.encode(received?.sender, forKey: .owner)
        try container.encode(received?.permission.description, forKey: .permission)
        try container.encode(received?.level, forKey: .level)
        try container.encode(received?.expiresAt, forKey: .expiresAt)
    }
}

/// One item as `show` gives it: the summary, the notes, and the password only when revealed.
///
/// JSON: the summary's keys plus `"notes"`, `"password"` (`null` unless revealed) and
/// `"strength"`.
public struct VaultItemView: Sendable, Hashable, Encodable {
    public var summary: VaultItemSummary
    public var notes: String?
    /// The password in the clear, or nil when it was not asked to be revealed.
    public var password: String?
    /// How many characters the password has (for a mask of the right length).
    public var passwordLength: Int
    public var strength: PasswordStrength

    private enum CodingKeys: String, CodingKey { case notes, password, passwordLength, strength }

    public func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notes, forKey: .notes)
        try container.encode(password, forKey: .password)
        try container.encode(passwordLength, forKey: .passwordLength)
        try container.encode(strength, forKey: .strength)
    }
}
