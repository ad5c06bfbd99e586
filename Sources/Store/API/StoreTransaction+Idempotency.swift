public import Foundation

/// What an idempotency key was first used for: a hash of the request and the message it queued.
public struct IdempotencyRecord: Sendable, Equatable {
    public var requestHash: Data
    public var messageID: Int64
}

extension StoreReader {
    /// The record of `key` as `token` used it, or nil when it never did (or its message was pruned).
    ///
    /// A key saved before keys belonged to a token (empty token) is found by every token, as it
    /// was before, so a client's retry across the upgrade still finds its first send; the token's
    /// own record comes first.
    ///
    /// - Parameter token: The token's identity (``APITokenRecord/hash``), empty for a send without one.
    public func idempotencyRecord(key: String, token: Data) throws -> IdempotencyRecord? {
        try db.row(sql: Self.recordOfKey, arguments: [key, token, Data()]).map {
            IdempotencyRecord(requestHash: $0["request_hash"], messageID: $0["message_id"])
        }
    }

    /// The empty token sorts before every other, so the token's own row wins over an older one.
    private static let recordOfKey = """
        SELECT request_hash, message_id FROM idempotency_keys WHERE key = ? AND token_id IN (?, ?)
        ORDER BY token_id DESC LIMIT 1
        """
}

extension StoreTransaction {
    /// Records that `token` used `key` to queue the message `messageID` for the request with
    /// hash `requestHash`.
    public func saveIdempotencyKey(_ key: String, token: Data, requestHash: Data, messageID: Int64, at time: Date) throws {
        try db.execute(
            sql: "INSERT INTO idempotency_keys (token_id, key, request_hash, message_id, created_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [token, key, requestHash, messageID, time.timeIntervalSince1970])
    }
}
