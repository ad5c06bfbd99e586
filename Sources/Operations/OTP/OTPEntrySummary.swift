public import Foundation

/// One OTP entry as every front end shows it: its name and parameters, never its secret.
///
/// JSON (``OperationsJSON``): `{"account","algorithm","counter","createdAt","digits","issuer",
/// "name","period","type"}`, every key always present, `null` where a value does not apply.
public struct OTPEntrySummary: Sendable, Hashable, Encodable {
    /// The entry's name, as stored.
    public var name: String
    /// Time-based or counter-based (JSON `totp` or `hotp`).
    public var type: OTPKind
    /// `sha1`, `sha256` or `sha512`.
    public var algorithm: String
    /// 6, 7 or 8.
    public var digits: Int
    /// TOTP: seconds per code; nil for HOTP.
    public var period: Int64?
    /// HOTP: the counter of the next code; nil for TOTP.
    public var counter: UInt64?
    /// The service name authenticator apps show, if any.
    public var issuer: String?
    /// The account name authenticator apps show.
    public var account: String
    public var createdAt: Date

    init(name: String, enrolment: OTPEnrolment, createdAt: Date) {
        self.name = name
        type = enrolment.kind
        algorithm = enrolment.algorithm.name.lowercased()
        digits = enrolment.digits
        period = enrolment.period
        counter = enrolment.counter
        issuer = enrolment.issuer
        account = enrolment.account
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, algorithm, digits, period, counter, issuer, account, createdAt
    }

    /// Writes absent values as `null`, so every entry has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(algorithm, forKey: .algorithm)
        try container.encode(digits, forKey: .digits)
        try container.encode(period, forKey: .period)
        try container.encode(counter, forKey: .counter)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(account, forKey: .account)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
