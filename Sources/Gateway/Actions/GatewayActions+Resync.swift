import Foundation
import SMSCipher
public import Store

/// What ``GatewayActions/acceptResync(contactName:store:)`` did.
public struct AcceptedResync: Sendable, Equatable {
    /// The id of the log row that records the completed resync: the message id commands show.
    public var logID: Int64
    /// The epoch now in force.
    public var epoch: UInt32
    /// The outbox id of the answer, or nil for a contact without a number (send ``answer`` by hand).
    public var outboxID: Int64?
    /// The answer's 160 characters.
    public var answer: String
    /// Quarantined messages that opened with the new keys.
    public var openedFromQuarantine: Int
}

extension GatewayActions {
    /// Starts a resynchronisation handshake with the contact over SMS (or repeats the pending one):
    /// saves the session that remembers it, queues the handshake SMS and logs "resync started",
    /// in one transaction. The peer's operator accepts it (or its daemon answers by itself with
    /// `[resync] accept = "auto"`); this side's daemon sends the handshake again with growing
    /// pauses until the answer arrives.
    ///
    /// - Parameter restart: Abandon the pending handshake and start a new one (its answers were lost).
    /// - Throws: ``StoreError/notFound(_:)`` (66), ``GatewayError`` (65) when not paired or when the
    ///   contact's own request waits for an answer, ``StoreError/invalidInput(_:)`` (65) without a number.
    @discardableResult
    public static func startResync(contactName: String, restart: Bool = false, store: UnlockedStore) throws -> StartedResync {
        try store.write { tx in
            let contact = try tx.contact(named: contactName)
            guard contact.number != nil else {
                throw StoreError.invalidInput(
                    "The contact \"\(contact.name)\" has no phone number, so a resync cannot go over SMS; use `smsgw resync \(contact.name) --manual`.")
            }
            let session = try tx.requirePairedSession(for: contact)
            if let request = session.resyncRequest {
                throw GatewayError(
                    .dataError,
                    "\(contact.name)'s gateway already asks for a resync (code \(request.code)); confirm the code with \(contact.name), then run `smsgw resync \(contact.name) --accept`, or `--reject` it first.")
            }
            var rng = SystemRandomNumberGenerator()
            let started = session.startingResync(restart: restart, using: &rng)
            try tx.saveSession(started.session, for: contact)
            let code = started.session.pendingResyncCode ?? ""
            // Not linked to the outbox row, so the log keeps saying "resync" once it is sent.
            let logID = try tx.appendLog(NewLogEntry(
                direction: .outgoing, contact: contact, status: .resync,
                text: "Resync started (code \(code)): handshake queued, waiting for the answer.", ciphertext: started.message))
            let outboxID = try tx.enqueueOutbox(started.message, to: contact, kind: .handshake)
            return StartedResync(logID: logID, outboxID: outboxID, contact: contact.name, code: code)
        }
    }

    /// Accepts the contact's resync request: completes it, queues the answer (or returns it for a
    /// contact without a number), logs the completed resync and retries the quarantined messages
    /// with the new keys, in one transaction. The operator's own decision, so not counted against
    /// the budget of automatic replies.
    ///
    /// - Throws: ``SMSCipher/CipherError/noResyncRequest`` (65) when nothing waits.
    public static func acceptResync(contactName: String, store: UnlockedStore) throws -> AcceptedResync {
        try store.write { tx in
            let contact = try tx.contact(named: contactName)
            let session = try tx.requirePairedSession(for: contact)
            var rng = SystemRandomNumberGenerator()
            let accepted = try session.acceptingResync(now: Date(), using: &rng)
            guard case .resync(let event) = accepted.opened, let answer = event.reply else { throw CipherError.noResyncRequest }
            try tx.saveSession(accepted.session, for: contact)
            let outboxID = contact.number == nil ? nil : try tx.enqueueOutbox(answer, to: contact, kind: .handshake)
            let logID = try tx.appendLog(NewLogEntry(
                direction: .outgoing, contact: contact, status: .resynced,
                text: "Resync accepted by the operator: new keys in force (epoch \(event.epoch)); answer \(outboxID == nil ? "printed to send by hand" : "queued").",
                ciphertext: answer))
            try tx.resetFailures(for: contact)
            let retried = try IncomingProcessor.retryQuarantine(for: contact.name, in: tx)
            return AcceptedResync(logID: logID, epoch: event.epoch, outboxID: outboxID, answer: answer, openedFromQuarantine: retried.opened)
        }
    }

    /// Drops the contact's resync request unanswered and logs it.
    /// - Throws: ``SMSCipher/CipherError/noResyncRequest`` (65) when nothing waits.
    public static func rejectResync(contactName: String, store: UnlockedStore) throws {
        try store.write { tx in
            let contact = try tx.contact(named: contactName)
            let session = try tx.requirePairedSession(for: contact)
            let code = session.resyncRequest?.code ?? ""
            try tx.saveSession(try session.rejectingResync(), for: contact)
            try tx.appendLog(NewLogEntry(
                direction: .incoming, contact: contact, status: .resync,
                text: "Resync request (code \(code)) rejected by the operator; the keys are unchanged."))
        }
    }

    static func lastResync(_ session: Session?) -> GatewayStatus.LastResync? {
        session?.lastResync.map { GatewayStatus.LastResync(epoch: $0.epoch, completedAt: $0.completedAt) }
    }
}
