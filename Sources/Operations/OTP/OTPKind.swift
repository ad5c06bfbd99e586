/// Which one-time password an entry gives: time-based (RFC 6238) or counter-based (RFC 4226).
public enum OTPKind: String, Codable, Sendable, Hashable, CustomStringConvertible {
    case totp, hotp

    /// `totp` or `hotp`, as stored, in JSON and in the CLI's listing.
    public var description: String { rawValue }
}
