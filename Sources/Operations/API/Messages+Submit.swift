import Crypto
public import Foundation
public import Store

extension Messages {
    /// What ``submit(_:to:idempotencyKey:queueLimit:store:now:using:)`` did.
    public struct Submission: Sendable, Equatable {
        /// The message as the transaction left it (or, replayed, as it is now).
        public var message: MessageDetail
        /// Whether the key had queued this message before, so nothing was queued now.
        public var replayed: Bool
        /// The message's id.
        public var id: Int64 { message.history.message.id }
    }

    /// Queues a text as ``queue(_:to:transliterate:maxParts:store:now:using:)`` does, at most once
    /// per idempotency key: the key, a hash of the request and the message are saved in the same
    /// transaction as the queue, so concurrent retries with one key queue one message.
    ///
    /// - Parameters:
    ///   - idempotencyKey: 1 to 255 printable ASCII characters, or nil.
    ///   - queueLimit: Refuse when this many messages are queued already; nil for no limit.
    /// - Throws: ``SubmissionError``; what ``queue(_:to:transliterate:maxParts:store:now:using:)`` throws.
    public static func submit(
        _ text: String, to contactName: String, idempotencyKey: String?, queueLimit: Int?, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> Submission {
        if let key = idempotencyKey, !(1...255).contains(key.utf8.count) || !key.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            throw SubmissionError.invalidKey
        }
        let prepared = try PreparedText(text, transliterate: false)
        let split = try prepared.split(maxParts: defaultMaxParts)
        let requestHash = Data(SHA256.hash(data: Data((contactName + "\u{0}" + text).utf8)))
        return try store.write { tx in
            if let key = idempotencyKey, let record = try tx.idempotencyRecord(key: key) {
                guard record.requestHash == requestHash else { throw SubmissionError.keyReused }
                return Submission(message: try MessageDetail.read(id: record.messageID, in: tx), replayed: true)
            }
            if let queueLimit, (try tx.outboxCounts()[.queued] ?? 0) >= queueLimit {
                throw SubmissionError.queueFull(limit: queueLimit)
            }
            let queued = try queue(prepared, split, to: contactName, in: tx, now: now, using: &rng)
            if let key = idempotencyKey {
                try tx.saveIdempotencyKey(key, requestHash: requestHash, messageID: queued.logID, at: now)
            }
            return Submission(message: try MessageDetail.read(id: queued.logID, in: tx), replayed: false)
        }
    }
}
