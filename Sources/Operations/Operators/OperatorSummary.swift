public import Foundation
public import Store

/// One operator as every front end shows it: never the password or the second factor's secret.
///
/// JSON (``OperationsJSON``): `{"name","role","twoFactor","lockedUntil","lastLoginAt","createdAt",
/// "updatedAt"}`, every key always present, `null` where a value does not apply.
public struct OperatorSummary: Sendable, Hashable, Encodable {
    public var name: String
    public var role: OperatorRole
    /// Whether every login needs a TOTP code after the password.
    public var twoFactor: Bool
    /// Set while failed logins keep the operator locked out.
    public var lockedUntil: Date?
    public var lastLoginAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    init(_ record: OperatorRecord, now: Date) {
        name = record.name
        role = record.role
        twoFactor = record.secondFactor != nil
        lockedUntil = record.lockedUntil.flatMap { $0 > now ? $0 : nil }
        lastLoginAt = record.lastLoginAt
        createdAt = record.createdAt
        updatedAt = record.updatedAt
    }

    private enum CodingKeys: String, CodingKey {
        case name, role, twoFactor, lockedUntil, lastLoginAt, createdAt, updatedAt
    }

    /// Writes absent values as `null`, so every operator has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(role, forKey: .role)
        try container.encode(twoFactor, forKey: .twoFactor)
        try container.encode(lockedUntil, forKey: .lockedUntil)
        try container.encode(lastLoginAt, forKey: .lastLoginAt)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// An operator whose password (and code) proved right: who they are and what they may do.
public struct AuthenticatedOperator: Sendable, Hashable {
    public var name: String
    public var role: OperatorRole
}
