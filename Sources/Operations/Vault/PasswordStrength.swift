public import Foundation

/// How hard a password is to guess, in bits: exact for one the generator made (from its own
/// choices), an estimate for one a person typed.
///
/// JSON: `{"bits","rating","source"}`, bits rounded to one decimal.
public struct PasswordStrength: Sendable, Hashable, Encodable {
    /// Below ``fairBits``: weak; below ``strongBits``: fair; otherwise strong.
    public enum Rating: String, Sendable, Hashable, Encodable { case weak, fair, strong }

    /// Where the figure comes from.
    public enum Source: String, Sendable, Hashable, Encodable {
        /// The generator's entropy: log2 of how many passwords it chose from, uniformly.
        case generated
        /// ``estimate(_:)`` of a typed password: an upper bound on what a guesser faces.
        case estimated
    }

    /// Below this many bits a password is weak.
    public static let fairBits = 50.0
    /// From this many bits on a password is strong.
    public static let strongBits = 75.0

    public var bits: Double
    public var source: Source

    public var rating: Rating {
        bits < Self.fairBits ? .weak : bits < Self.strongBits ? .fair : .strong
    }

    public init(bits: Double, source: Source) {
        self.bits = bits
        self.source = source
    }

    private enum CodingKeys: String, CodingKey { case bits, rating, source }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode((bits * 10).rounded() / 10, forKey: .bits)
        try container.encode(rating, forKey: .rating)
        try container.encode(source, forKey: .source)
    }
}

/// What the vault found about a password a person typed: its estimated strength, the other items
/// that use the same password, and whether this item used it before.
///
/// JSON: `{"previouslyUsed","reusedBy","strength"}`.
public struct PasswordCheck: Sendable, Hashable, Encodable {
    public var strength: PasswordStrength
    /// Titles of the other items whose current or earlier password is the same.
    public var reusedBy: [String]
    /// Whether the item's own history holds this password.
    public var previouslyUsed: Bool

    /// Whether anything calls for a second thought.
    public var hasWarnings: Bool { strength.rating == .weak || !reusedBy.isEmpty || previouslyUsed }
}

/// What saving an item returned: how it is listed and, for a typed password, the check.
public struct VaultSaved: Sendable, Hashable, Encodable {
    public var summary: VaultItemSummary
    /// nil when the password did not change or the generator made it.
    public var check: PasswordCheck?

    private enum CodingKeys: String, CodingKey { case item, check }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summary, forKey: .item)
        try container.encode(check, forKey: .check)
    }
}
