public import Failures
public import Foundation
import SMSCipher
public import Store

/// Resynchronisation over SMS as the operator runs it: start (or repeat, or restart) a handshake,
/// and accept or reject one the contact's gateway asked for. Each is one transaction; the daemon
/// sends what they queue. A contact without a number is refused by the same rule as a text
/// (``ContactError/noNumber(contact:purpose:)``); manual re-pairing is
/// ``Contacts/startRePairing(_:store:using:)``.
public enum Resync {
    /// Starts a handshake with the contact (or repeats the pending one): saves the session that
    /// remembers it, queues the handshake SMS and logs "resync started", in one transaction. The
    /// peer's operator accepts it (or its daemon answers by itself when configured to); this
    /// side's daemon sends the handshake again with growing pauses until the answer arrives.
    ///
    /// - Parameters:
    ///   - restart: Abandon the pending handshake and start a new one (its answers were lost).
    ///   - actor: Who starts it, for the audit line (`resync`, the contact) written in the same
    ///     transaction, with the client's `address`; nil writes none.
    ///   - now: The clock, for the log and the outbox.
    ///   - rng: The handshake's fresh nonce.
    /// - Throws: ``Store/StoreError/notFound(_:)``; ``ContactError/noNumber(contact:purpose:)``
    ///   (unavailable); ``ContactError/notPaired(contact:)``; ``ResyncError/requestWaiting(contact:code:)``
    ///   when the contact's own request waits for a decision.
    @discardableResult
    public static func start(
        with contactName: String, restart: Bool = false, by actor: AuditActor? = nil, address: String? = nil, store: UnlockedStore,
        now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> StartedResync {
        try store.write { tx in
            let contact = try tx.contact(named: contactName).requiringNumber(for: .resync, in: tx)
            let session = try tx.requirePairedSession(for: contact)
            if let request = session.resyncRequest {
                throw ResyncError.requestWaiting(contact: contact.name, code: request.code)
            }
            let started = session.startingResync(restart: restart, using: &rng)
            try tx.saveSession(started.session, for: contact)
            let code = started.session.pendingResyncCode ?? ""
            // Not linked to the outbox row, so the log keeps saying "resync" once it is sent.
            let logID = try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .outgoing, contact: contact, status: .resync,
                    text: "Resync started (code \(code)): handshake queued, waiting for the answer.", ciphertext: started.message))
            let outboxID = try tx.enqueueOutbox(started.message, to: contact, kind: .handshake, now: now)
            try audit(contact, by: actor, address: address, in: tx, now: now)
            return StartedResync(logID: logID, outboxID: outboxID, contact: contact.name, code: code)
        }
    }

    /// Accepts the contact's resync request: completes it, queues the answer (or returns it for a
    /// contact without a number), logs the completed resync and retries the quarantined messages
    /// with the new keys, in one transaction (with the audit line when `actor` is given). The operator's own decision, so not counted against
    /// the budget of automatic replies.
    ///
    /// - Throws: ``ResyncError/noRequestWaiting(contact:)`` when nothing waits;
    ///   ``ContactError/notPaired(contact:)``.
    public static func accept(
        from contactName: String, by actor: AuditActor? = nil, address: String? = nil, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> AcceptedResync {
        try store.write { tx in
            let contact = try tx.contact(named: contactName)
            let session = try tx.requirePairedSession(for: contact)
            let accepted = try deciding(for: contact) { try session.acceptingResync(now: now, using: &rng) }
            guard case .resync(let event) = accepted.opened, let answer = event.reply else {
                throw ResyncError.noRequestWaiting(contact: contact.name)
            }
            try tx.saveSession(accepted.session, for: contact)
            let outboxID = contact.number == nil ? nil : try tx.enqueueOutbox(answer, to: contact, kind: .handshake, now: now)
            let logID = try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .outgoing, contact: contact, status: .resynced,
                    text:
                        "Resync accepted by the operator: new keys in force (epoch \(event.epoch)); answer \(outboxID == nil ? "returned to send by hand" : "queued").",
                    ciphertext: answer))
            try tx.completeResync(for: contact)
            let retried = try Quarantine.retry(for: contact, path: .gateway(ResyncSettings()), in: tx, now: now, using: &rng)
            try audit(contact, by: actor, address: address, in: tx, now: now)
            return AcceptedResync(
                logID: logID, contact: contact.name, epoch: event.epoch, outboxID: outboxID, answer: answer,
                openedFromQuarantine: retried.opened)
        }
    }

    /// Drops the contact's resync request unanswered and logs it (with the audit line when
    /// `actor` is given); the keys stay as they are.
    ///
    /// - Throws: ``ResyncError/noRequestWaiting(contact:)`` when nothing waits.
    @discardableResult
    public static func reject(
        from contactName: String, by actor: AuditActor? = nil, address: String? = nil, store: UnlockedStore, now: Date
    ) throws -> RejectedResync {
        try store.write { tx in
            let contact = try tx.contact(named: contactName)
            let session = try tx.requirePairedSession(for: contact)
            let code = session.resyncRequest?.code ?? ""
            try tx.saveSession(try deciding(for: contact) { try session.rejectingResync() }, for: contact)
            try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .incoming, contact: contact, status: .resync,
                    text: "Resync request (code \(code)) rejected by the operator; the keys are unchanged."))
            try audit(contact, by: actor, address: address, in: tx, now: now)
            return RejectedResync(contact: contact.name)
        }
    }

    /// The audit line of a resync started, accepted or rejected by `actor` (none for nil).
    private static func audit(_ contact: Contact, by actor: AuditActor?, address: String?, in tx: StoreTransaction, now: Date) throws {
        if let actor { try Audit.record(.resync, by: actor, target: contact.name, address: address, in: tx, now: now) }
    }

    /// The outcome of deciding on the contact's resync request, naming the contact when none waits.
    private static func deciding<Decided>(for contact: Contact, _ decide: () throws -> Decided) throws -> Decided {
        do {
            return try decide()
        } catch CipherError.noResyncRequest {
            throw ResyncError.noRequestWaiting(contact: contact.name)
        }
    }
}

/// A resync cannot start in the contact's present state.
public enum ResyncError: CategorizedError, Sendable, Equatable {
    /// The contact's gateway asked for a resync first: accept or reject that request.
    case requestWaiting(contact: String, code: String)
    /// Nothing to accept or reject: the contact has not asked for a resync, or its request was
    /// already decided.
    case noRequestWaiting(contact: String)

    public var category: ErrorCategory { .conflict }

    public var description: String {
        switch self {
        case .requestWaiting(let contact, let code):
            "\(contact)'s gateway already asks for a resync (code \(code)); confirm the code with \(contact), then accept or reject that request first."
        case .noRequestWaiting(let contact):
            "\(contact) has not asked for a resync (or its request was already accepted or rejected), so there is nothing to accept or reject."
        }
    }
}
