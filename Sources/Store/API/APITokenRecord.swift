public import Foundation

/// One stored API token: its name, the SHA-256 of the token (never the token), its scopes and times.
public struct APITokenRecord: Sendable, Equatable {
    /// Unique without regard to case.
    public var name: String
    /// SHA-256 of the token's bytes.
    public var hash: Data
    /// Sorted, comma-separated scope names (the application layer owns their meaning).
    public var scopes: String
    public var createdAt: Date
    public var expiresAt: Date?
    public var lastUsedAt: Date?

    public init(name: String, hash: Data, scopes: String, createdAt: Date, expiresAt: Date? = nil, lastUsedAt: Date? = nil) {
        self.name = name
        self.hash = hash
        self.scopes = scopes
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
    }

    init(row: StoreRow) {
        name = row["name"]
        hash = row["token_hash"]
        scopes = row["scopes"]
        createdAt = Date(timeIntervalSince1970: row["created_at"])
        expiresAt = (row["expires_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        lastUsedAt = (row["last_used_at"] as Double?).map(Date.init(timeIntervalSince1970:))
    }
}

extension StoreReader {
    /// Every API token, by name.
    public func apiTokens() throws -> [APITokenRecord] {
        try db.rows(sql: Self.everyToken).map(APITokenRecord.init(row:))
    }

    /// The columns named, so that the statement stays prepared (see ``GRDBConnection``).
    private static let everyToken = """
        SELECT name, token_hash, scopes, created_at, expires_at, last_used_at FROM api_tokens ORDER BY name
        """
}

extension StoreTransaction {
    /// Stores a new token.
    ///
    /// - Throws: ``StoreError/alreadyExists(_:)`` when a token has the name (without regard to case).
    public func addAPIToken(_ record: APITokenRecord) throws {
        if try db.value(Bool.self, sql: "SELECT 1 FROM api_tokens WHERE name = ?", arguments: [record.name]) == true {
            throw StoreError.alreadyExists("An API token named \"\(record.name)\" already exists; revoke it first or choose another name.")
        }
        try db.execute(
            sql: """
                INSERT INTO api_tokens (name, token_hash, scopes, created_at, expires_at, last_used_at)
                VALUES (?, ?, ?, ?, ?, NULL)
                """,
            arguments: [
                record.name, record.hash, record.scopes, record.createdAt.timeIntervalSince1970,
                record.expiresAt?.timeIntervalSince1970,
            ])
    }

    /// Deletes the token with this name; returns whether one existed.
    public func removeAPIToken(named name: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM api_tokens WHERE name = ?", arguments: [name])
        return db.changesCount > 0
    }

    /// Records that the token was used at `time`.
    public func recordAPITokenUse(named name: String, at time: Date) throws {
        try db.execute(sql: "UPDATE api_tokens SET last_used_at = ? WHERE name = ?", arguments: [time.timeIntervalSince1970, name])
    }
}
