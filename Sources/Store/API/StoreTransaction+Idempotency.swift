public import Foundation

/// What an idempotency key was first used for: a hash of the request and the message it queued.
public struct IdempotencyRecord: Sendable, Equatable {
    public var requestHash: Data
    public var messageID: Int64
}

extension StoreReader {
    /// The record of an idempotency key, or nil when it was never used (or its message was pruned).
    public func idempotencyRecord(key: String) throws -> IdempotencyRecord? {
        try db.row(sql: "SELECT request_hash, message_id FROM idempotency_keys WHERE key = ?", arguments: [key]).map {
            IdempotencyRecord(requestHash: $0["request_hash"], messageID: $0["message_id"])
        }
    }
}

extension StoreTransaction {
    /// Records that `key` queued the message `messageID` for the request with hash `requestHash`.
    public func saveIdempotencyKey(_ key: String, requestHash: Data, messageID: Int64, at time: Date) throws {
        try db.execute(
            sql: "INSERT INTO idempotency_keys (key, request_hash, message_id, created_at) VALUES (?, ?, ?, ?)",
            arguments: [key, requestHash, messageID, time.timeIntervalSince1970])
    }
}
