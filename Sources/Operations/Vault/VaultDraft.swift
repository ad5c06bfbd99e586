public import Foundation

/// A new vault item as a front end collects it: the fields, and whether a person typed the
/// password (then it is checked for reuse and its strength estimated) or the generator made it.
public struct VaultDraft: Sendable, Hashable {
    public var title: String
    public var username: String?
    public var url: String?
    public var notes: String?
    public var password: String
    /// An `otpauth://totp/...` URI, if the service uses a second factor.
    public var totp: String?
    /// The generator's entropy when it made the password; nil when a person typed it.
    public var generatedBits: Double?

    public init(
        title: String, username: String? = nil, url: String? = nil, notes: String? = nil, password: String,
        totp: String? = nil, generatedBits: Double? = nil
    ) {
        self.title = title
        self.username = username
        self.url = url
        self.notes = notes
        self.password = password
        self.totp = totp
        self.generatedBits = generatedBits
    }
}

/// Changes to an existing item: nil leaves a field as it is, an empty string clears an optional
/// field (username, address, notes, TOTP URI).
public struct VaultChanges: Sendable, Hashable {
    public var title: String?
    public var username: String?
    public var url: String?
    public var notes: String?
    /// A new password; the old one goes to the item's history.
    public var password: String?
    public var totp: String?
    /// The generator's entropy when it made the new password.
    public var generatedBits: Double?
    /// Marks the password as known to someone who should not know it (the audit lists it as
    /// exposed until the password changes).
    public var markExposed = false

    public init(
        title: String? = nil, username: String? = nil, url: String? = nil, notes: String? = nil, password: String? = nil,
        totp: String? = nil, generatedBits: Double? = nil, markExposed: Bool = false
    ) {
        self.title = title
        self.username = username
        self.url = url
        self.notes = notes
        self.password = password
        self.totp = totp
        self.generatedBits = generatedBits
        self.markExposed = markExposed
    }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        title == nil && username == nil && url == nil && notes == nil && password == nil && totp == nil && !markExposed
    }

    /// Whether only the password changes (all a holder with `use+change+share` may change).
    var onlyPassword: Bool {
        password != nil && title == nil && username == nil && url == nil && notes == nil && totp == nil && !markExposed
    }
}
