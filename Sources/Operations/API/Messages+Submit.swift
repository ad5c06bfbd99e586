import Crypto
public import Foundation
import SMSCipher
public import Store

extension Messages {
    /// What ``submit(_:to:idempotencyKey:token:queueLimit:store:now:using:)`` did.
    public struct Submission: Sendable, Equatable {
        /// The message as the transaction left it (or, replayed, as it is now).
        public var message: MessageDetail
        /// Whether the key had queued this message before, so nothing was queued now.
        public var replayed: Bool
        /// The message's id.
        public var id: Int64 { message.history.message.id }
    }

    /// One send of ``submit(_:queueLimit:store:now:using:)``: a text, its contact, its key and
    /// the token that sent it.
    public struct SubmissionRequest: Sendable, Equatable {
        public var text: String
        public var contact: String
        /// 1 to 255 printable ASCII characters, or nil.
        public var idempotencyKey: String?
        /// The API token that sent it, which owns the key; nil for a send without a token.
        public var token: APIToken.ID?
        /// Who sends, for the audit line of a send that queues (a replay queues nothing and
        /// writes none); nil writes none.
        public var actor: AuditActor?
        /// The client's address, for the audit line.
        public var address: String?

        public init(
            text: String, contact: String, idempotencyKey: String?, token: APIToken.ID? = nil, actor: AuditActor? = nil,
            address: String? = nil
        ) {
            self.text = text
            self.contact = contact
            self.idempotencyKey = idempotencyKey
            self.token = token
            self.actor = actor
            self.address = address
        }
    }

    /// Queues a text as ``queue(_:to:transliterate:maxParts:by:address:store:now:using:)`` does, at most once
    /// per idempotency key and token: the token, the key, a hash of the request and the message
    /// are saved in the same transaction as the queue, so concurrent retries with one key queue
    /// one message, and another token's key of the same name queues its own.
    ///
    /// A send without a token (nil; the console and the CLI send without keys) shares its keys
    /// with every other send without one, and with the keys saved before keys belonged to a
    /// token, which every token still finds (``Store/StoreReader/idempotencyRecord(key:token:)``).
    ///
    /// - Parameters:
    ///   - idempotencyKey: 1 to 255 printable ASCII characters, or nil.
    ///   - token: The API token that sends it, or nil.
    ///   - queueLimit: Refuse when this many messages are queued already; nil for no limit.
    /// - Throws: ``SubmissionError``; what ``queue(_:to:transliterate:maxParts:by:address:store:now:using:)`` throws.
    public static func submit(
        _ text: String, to contactName: String, idempotencyKey: String?, token: APIToken.ID? = nil, queueLimit: Int?,
        store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> Submission {
        let request = SubmissionRequest(text: text, contact: contactName, idempotencyKey: idempotencyKey, token: token)
        return try submit([request], queueLimit: queueLimit, store: store, now: now, using: &rng)[0].get()
    }

    /// Submits several sends in one transaction, each as the single
    /// ``submit(_:to:idempotencyKey:token:queueLimit:store:now:using:)`` does and in its own savepoint:
    /// one send's failure changes nothing of the others, and all of them cost one commit (one
    /// sync to disk) instead of one each. The results are in the order of the requests.
    ///
    /// - Throws: Only when the transaction itself fails (the store busy, the disk full); then
    ///   nothing was queued.
    public static func submit(
        _ requests: [SubmissionRequest], queueLimit: Int?, store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> [Result<Submission, any Error>] {
        let checked = requests.map { request in Result { try Checked(request) } }
        return try store.write(.contacts(named: requests.map(\.contact), numbers: [])) { tx in
            try checked.map { request in
                let outcome = request.flatMap { request in
                    Result { try tx.savepoint { try submit(request, queueLimit: queueLimit, in: tx, now: now, using: &rng) } }
                }
                // The store failing is no one send's fault: the whole transaction fails with it.
                if case .failure(let error) = outcome, let failure = StoreError.databaseFailure(in: error) { throw failure }
                return outcome
            }
        }
    }

    /// A request whose key and text were checked before the transaction.
    private struct Checked {
        var request: SubmissionRequest
        var prepared: PreparedText
        var split: LongText
        var requestHash: Data

        init(_ request: SubmissionRequest) throws {
            if let key = request.idempotencyKey,
                !(1...255).contains(key.utf8.count) || !key.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
            {
                throw SubmissionError.invalidKey
            }
            self.request = request
            prepared = try PreparedText(request.text, transliterate: false)
            split = try prepared.split(maxParts: defaultMaxParts)
            requestHash = Data(SHA256.hash(data: Data((request.contact + "\u{0}" + request.text).utf8)))
        }
    }

    private static func submit(
        _ checked: Checked, queueLimit: Int?, in tx: StoreTransaction, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> Submission {
        let key = checked.request.idempotencyKey
        let token = checked.request.token?.hash ?? Data()
        if let key, let record = try tx.idempotencyRecord(key: key, token: token) {
            guard record.requestHash == checked.requestHash else { throw SubmissionError.keyReused }
            return Submission(message: try MessageDetail.read(id: record.messageID, in: tx), replayed: true)
        }
        if let queueLimit, (try tx.outboxCounts()[.queued] ?? 0) >= queueLimit {
            throw SubmissionError.queueFull(limit: queueLimit)
        }
        let request = checked.request
        let (queued, logged) = try queue(
            checked.prepared, checked.split, to: request.contact, by: request.actor, address: request.address, in: tx, now: now,
            using: &rng)
        if let key {
            try tx.saveIdempotencyKey(key, token: token, requestHash: checked.requestHash, messageID: queued.logID, at: now)
        }
        return Submission(message: try MessageDetail.queued(queued, logged: logged, in: tx), replayed: false)
    }
}
