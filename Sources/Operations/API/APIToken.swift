public import Foundation
import Store

/// An API token as listed (never the token itself): its name, scopes and times.
///
/// Its JSON is `{"name","scopes","createdAt","expiresAt","lastUsedAt"}`, absent times `null`.
public struct APIToken: Sendable, Equatable, Encodable {
    /// Which token it is, for what belongs to it (its idempotency keys): unique to this token, and
    /// a token made later with the same name has another one. Never in its JSON.
    public struct ID: Sendable, Hashable {
        /// The SHA-256 the store keeps of the token (``Store/APITokenRecord/hash``).
        var hash: Data
    }

    public var id: ID
    public var name: String
    public var scopes: Set<APIScope>
    public var createdAt: Date
    public var expiresAt: Date?
    public var lastUsedAt: Date?

    init(_ record: APITokenRecord) {
        id = ID(hash: record.hash)
        name = record.name
        scopes = Set(record.scopes.split(separator: ",").compactMap { APIScope(rawValue: String($0)) })
        createdAt = record.createdAt
        expiresAt = record.expiresAt
        lastUsedAt = record.lastUsedAt
    }

    /// Whether the token may do what `scope` covers: `admin` covers everything.
    public func allows(_ scope: APIScope) -> Bool {
        scopes.contains(scope) || scopes.contains(.admin) || (scope == .metrics && scopes.contains(.read))
    }

    /// The token, when it has `scope`.
    ///
    /// - Throws: ``APITokenError/missingScope(_:)`` (forbidden).
    public func requiring(_ scope: APIScope) throws(APITokenError) -> APIToken {
        guard allows(scope) else { throw .missingScope(scope) }
        return self
    }

    enum CodingKeys: String, CodingKey { case name, scopes, createdAt, expiresAt, lastUsedAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(scopes.sorted(), forKey: .scopes)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
    }
}

/// A token just made: the secret, shown once, and what is stored about it.
///
/// Its JSON is the ``APIToken``'s with `token`.
public struct CreatedAPIToken: Sendable, Encodable {
    /// The bearer token: `smsgw_` and 43 base64url characters (256 random bits).
    public var token: String
    public var summary: APIToken

    enum CodingKeys: String, CodingKey { case token }

    public func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
    }
}
