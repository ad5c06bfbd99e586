import Crypto
public import Foundation
public import Store

/// The HTTP API's bearer tokens (and the console's, later): made with 256 random bits, stored
/// only as a SHA-256, checked in constant time, with scopes, an optional expiry and the time of
/// last use. Each operation is one store transaction.
public enum APITokens {
    /// The prefix every token starts with, so a leaked one is easy to recognise in a scan.
    public static let prefix = "smsgw_"
    /// How stale the stored time of last use may get before a use writes it again: a write per
    /// request would serialise every API call on the store's write lock.
    static let lastUseResolution: TimeInterval = 60

    /// Makes a token and stores its hash; the token is in the result and nowhere else.
    ///
    /// - Parameters:
    ///   - name: 1 to 64 letters, digits, `-`, `_` or `.`, unique without regard to case.
    ///   - scopes: At least one.
    ///   - lifetime: Seconds until it expires, or nil for never.
    ///   - actor: Who makes it, for the audit line written with it (`token-created`).
    ///   - address: The client's address, for the audit line.
    /// - Throws: ``APITokenError``; ``Store/StoreError/alreadyExists(_:)`` for a name in use.
    public static func create(
        name: String, scopes: Set<APIScope>, lifetime: TimeInterval?, by actor: AuditActor = .commandLine, address: String? = nil,
        store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> CreatedAPIToken {
        guard (1...64).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else { throw APITokenError.invalidName }
        guard !scopes.isEmpty else { throw APITokenError.noScope }
        if let lifetime, !(lifetime > 0 && lifetime.isFinite) { throw APITokenError.invalidExpiry }
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max, using: &rng) }
        let token = prefix + base64URL(bytes)
        let record = APITokenRecord(
            name: name, hash: hash(token), scopes: APIScope.stored(scopes), createdAt: now,
            expiresAt: lifetime.map { now.addingTimeInterval($0) })
        try store.write { tx in
            try tx.addAPIToken(record)
            try Audit.record(.tokenCreated, by: actor, target: name, address: address, in: tx, now: now)
        }
        return CreatedAPIToken(token: token, summary: APIToken(record))
    }

    /// Every token, by name (never the tokens themselves).
    public static func list(store: UnlockedStore) throws -> [APIToken] {
        try store.read { try $0.apiTokens() }.map(APIToken.init)
    }

    /// Deletes the token: requests carrying it get 401 from the next one on. Audited as
    /// `token-revoked` by `actor` in the same transaction.
    ///
    /// - Throws: ``APITokenError/notFound(_:)``.
    public static func revoke(
        _ name: String, by actor: AuditActor = .commandLine, address: String? = nil, store: UnlockedStore, now: Date = Date()
    ) throws {
        let removed = try store.write { tx in
            guard try tx.removeAPIToken(named: name) else { return false }
            try Audit.record(.tokenRevoked, by: actor, target: name, address: address, in: tx, now: now)
            return true
        }
        guard removed else { throw APITokenError.notFound(name) }
    }

    /// The token a request presented, when it is known and not expired; records its use.
    ///
    /// Every stored hash is compared with the presented token's in full (constant time), so the
    /// time taken tells nothing about how close a guess came.
    ///
    /// - Throws: ``APITokenError/invalid`` or ``APITokenError/expired(_:)`` (authentication).
    public static func authenticate(_ presented: String, store: UnlockedStore, now: Date) throws -> APIToken {
        let presentedHash = hash(presented)
        var match: APITokenRecord?
        for record in try store.currentAPITokens() where constantTimeEqual(record.hash, presentedHash) {
            match = record
        }
        guard let match else { throw APITokenError.invalid }
        if let expiry = match.expiresAt, expiry <= now { throw APITokenError.expired(expiry) }
        if match.lastUsedAt.map({ now.timeIntervalSince($0) >= lastUseResolution }) ?? true {
            try store.write { tx in try tx.recordAPITokenUse(named: match.name, at: now) }
        }
        return APIToken(match)
    }

    static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }

    static func constantTimeEqual(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension APITokens {
    /// Seconds from a duration such as `30d`, `12h`, `90m` or `3600s` (a plain number is seconds).
    ///
    /// - Throws: ``APITokenError/invalidExpiry``.
    public static func lifetime(parsing text: String) throws(APITokenError) -> TimeInterval {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        let unit = trimmed.last.flatMap { units[$0] }
        let digits = unit == nil ? Substring(trimmed) : trimmed.dropLast()
        guard let count = Double(digits), count > 0, count.isFinite else { throw .invalidExpiry }
        return count * (unit ?? 1)
    }
}
