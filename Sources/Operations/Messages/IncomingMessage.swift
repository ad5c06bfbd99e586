public import Foundation
public import SMSCipher
public import Store

/// Applying a message that opened: the one function behind both ways a ciphertext arrives, the
/// daemon's receive path (an SMS from a modem) and copy-and-paste decryption (a person pastes
/// what a phone received).
///
/// Both paths save the new state, log what the message was, record the receive time and clear
/// the failure count the same way, with the same log texts. They differ on purpose in three
/// places, decided by ``ReceivePath``:
///
/// - **Answers to a resync handshake.** The daemon queues them for a modem, and only within the
///   contact's hourly budget of automatic replies (``ResyncSettings/automaticRepliesPerHour``),
///   so replayed SMS cannot make it send without bound; an answer over the budget is withheld
///   and the state is left as it was, so a later copy may still get its one answer. By hand the
///   answer is returned for the person to send back: a person sends it, so no budget applies.
/// - **A peer's resync request.** The daemon answers it at once when its settings say
///   ``ResyncSettings/Acceptance/auto`` (within the budget); by hand it always waits for the
///   operator, who compares the code first.
/// - **What comes before.** Only an opened message reaches this function. A ciphertext that does
///   not open is the caller's: the daemon logs it as rejected, counts it against the contact and
///   keeps it in quarantine for after a resync (the network delivered it; the sender may be out of
///   step), and records the SMS's fingerprint; by hand a failure changes nothing at all (the
///   person still holds the text, most likely mis-copied it, and can paste it again), and a
///   paste that does not verify is told apart when it is this side's own SMS or another
///   contact's (``Messages/misdirection(of:pastedAs:store:now:using:)``).
public enum IncomingMessage {
    /// Saves the state `result` carries and logs the message, in the caller's transaction.
    ///
    /// - Parameters:
    ///   - result: What ``SMSCipher/Session/opening(_:now:using:)`` returned for `ciphertext`.
    ///   - ciphertext: The 160 characters as received, for the log.
    ///   - contact: The contact whose session opened it.
    ///   - fingerprint: The received SMS's fingerprint for the log row (nil by hand, and for a
    ///     message retried from quarantine, whose SMS was recorded when it arrived).
    ///   - path: Which way the message came; see ``IncomingMessage``.
    ///   - tx: The transaction that opened it: verify, advance and log commit together.
    ///   - now: The clock.
    ///   - rng: Randomness for an automatic answer to a resync request.
    /// - Returns: The log row and what the message was.
    public static func apply(
        _ result: OpenResult, ciphertext: String, from contact: Contact, fingerprint: String?, path: ReceivePath,
        in tx: StoreTransaction, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> AppliedMessage {
        switch result.opened {
        case .message(let message):
            try accept(result.session, from: contact, in: tx, now: now)
            try Acknowledgements.note(message.epoch, message.position, ciphertext: ciphertext, from: contact, in: tx, now: now)
            let id = try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .incoming, contact: contact, status: .decrypted, text: message.text,
                    ciphertext: ciphertext, fingerprint: fingerprint))
            return AppliedMessage(logID: id, contact: contact.name, content: .text(message))
        case .typed(let typed):
            try accept(result.session, from: contact, in: tx, now: now)
            if contact.protocolVersion < 2 { try tx.setProtocolVersion(2, for: contact) }
            if let acknowledgement = Acknowledgement(typed.payload) {
                return try Acknowledgements.receive(acknowledgement, from: contact, in: tx, now: now)
            }
            try Acknowledgements.note(typed.epoch, typed.position, ciphertext: ciphertext, from: contact, in: tx, now: now)
            if let part = TextPart(typed.payload) {
                return try LongTexts.receive(part, typed, ciphertext: ciphertext, from: contact, fingerprint: fingerprint, in: tx, now: now)
            }
            if let vault = VaultMessage(typed.payload) {
                return try VaultSharing.receive(
                    vault, typed, ciphertext: ciphertext, from: contact, fingerprint: fingerprint, in: tx, now: now)
            }
            let id = try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .incoming, contact: contact, status: .typed, text: TypedRecord.text(of: typed.payload),
                    ciphertext: ciphertext, error: TypedRecord.note(for: typed.payload), fingerprint: fingerprint))
            return AppliedMessage(logID: id, contact: contact.name, content: .typed(typed))
        case .resync(let event):
            let handshake = HandshakeContext(
                ciphertext: ciphertext, contact: contact, fingerprint: fingerprint, path: path, now: now)
            return try applyResync(result.session, event: event, handshake, in: tx, using: &rng)
        }
    }
}

extension IncomingMessage {
    /// The log's sentence for this side's own SMS (log row `message`, sent to `contact`) come
    /// back from the contact's number, forwarded or replayed: the daemon logs it as rejected but
    /// neither counts it against the contact nor keeps it, as it says nothing of the contact's keys.
    public static func reflectedNote(message: Int64, contact: String) -> String {
        "This side's own SMS (message \(message), sent to \(contact)) came back from \(contact)'s number, forwarded or replayed; not counted as a failure and not kept."
    }

    /// The log's note on a contact's message that came from `number`, which is not one of the
    /// contact's: its keys opened it, so the contact wrote it (a new SIM, a second phone), but
    /// answers still go to the contact's numbers until a person adds this one.
    public static func otherNumberNote(_ number: String, contact: String) -> String {
        "Sent from \(number), which is not one of \(contact)'s numbers; \(contact)'s keys opened it. Answers go to \(contact)'s numbers until this one is added."
    }

    /// What every data message that opened does to its contact, whatever it carries: the new
    /// state is saved, the receive time recorded and the failure count cleared.
    static func accept(_ session: Session, from contact: Contact, in tx: StoreTransaction, now: Date) throws {
        try tx.saveSession(session, for: contact)
        try tx.recordReceived(from: contact, at: now)
        try tx.resetFailures(for: contact)
    }
}

/// Which way an opened message came, deciding what ``IncomingMessage/apply(_:ciphertext:from:fingerprint:path:in:now:using:)``
/// does with a resync handshake's answer.
public enum ReceivePath: Sendable, Equatable {
    /// From a modem, applied by the daemon: answers are queued within the reply budget, and a
    /// peer's request is answered at once when `settings` say so.
    case gateway(ResyncSettings)
    /// Pasted by a person: answers are returned to be sent by hand, and a peer's request waits
    /// for the operator.
    case byHand
}

/// What applying an opened message did.
public struct AppliedMessage: Sendable, Equatable {
    /// The id of the log row the message became: the message id every front end shows.
    public var logID: Int64
    /// The contact's name as stored.
    public var contact: String
    /// A text, a resync handshake, or a typed payload.
    public var content: Content

    public enum Content: Sendable, Equatable {
        /// A verified text and its place in the peer's chain.
        case text(ReceivedMessage)
        /// A resync handshake.
        case resync(AppliedResync)
        /// A typed payload (docs/PROTOCOL.md §3.4) of a kind this version does not act on, kept in
        /// the log with status `typed`.
        case typed(ReceivedTyped)
        /// A part of a long text (docs/PROTOCOL.md §8), and the text when it completed one.
        case part(AppliedPart)
        /// An acknowledgement from the peer's gateway (docs/PROTOCOL.md §9); its ``AppliedMessage/logID``
        /// is the last message it completed, or 0.
        case acknowledgement(AppliedAcknowledgement)
    }
}

/// What a resync handshake did.
public struct AppliedResync: Sendable, Equatable {
    /// The epoch the handshake is about.
    public var epoch: UInt32
    /// What the handshake was: a request, a completion, a repeat, a superseded one.
    public var outcome: ResyncEvent.Outcome
    /// Whether new keys are now in force (a completion, also an automatic answer to a request).
    public var completed: Bool
    /// The code of the peer's request waiting for the operator, when one waits now.
    public var requestCode: String?
    /// What became of the answer the peer needs, if it needs one.
    public var answer: HandshakeAnswer
}

/// The answer to a peer's handshake.
public enum HandshakeAnswer: Sendable, Equatable {
    /// None is needed.
    case none
    /// Queued for a modem (the daemon's path), in the outbox row with this id.
    case queued(outboxID: Int64)
    /// To send back by hand: the 160 characters (copy and paste).
    case byHand(String)
    /// Withheld: over the contact's hourly budget of automatic replies.
    case withheld
}
