public import Foundation
import SMSCipher
public import Store

/// End-to-end acknowledgements (docs/PROTOCOL.md §9), for contacts that turned them on: what this
/// side decrypted is acknowledged in batches, what the peer acknowledges moves to `acknowledged`,
/// and parts of long texts the peer does not acknowledge in time are sent again, the stored
/// ciphertext, with growing pauses, until they are given up.
public enum Acknowledgements {
    /// How long a decrypted message waits for others to share its acknowledgement.
    public static let defaultDelay: TimeInterval = 30
    /// How long a part waits for its acknowledgement before it is sent again (doubled each time).
    public static let defaultTimeout: TimeInterval = 120
    /// Sends of one SMS in all, the first included, before it is given up.
    public static let maxSends = 5

    /// The middle of ``unacknowledged(by:sends:)``, after the contact's name, and its end.
    static let unacknowledgedParts = (
        middle: "'s gateway did not acknowledge this part after ",
        end: " that their gateway runs and has acknowledgements on, then send the text again."
    )

    /// The error of a part given up because `contact`'s gateway did not acknowledge it after `sends` sends.
    static func unacknowledged(by contact: String, sends: Int) -> String {
        "\(contact)\(unacknowledgedParts.middle)\(sends) sends; check with \(contact)\(unacknowledgedParts.end)"
    }

    /// Whether `text` is an error ``unacknowledged(by:sends:)`` wrote.
    static func isUnacknowledged(_ text: String) -> Bool {
        text.contains(unacknowledgedParts.middle) && text.hasSuffix(unacknowledgedParts.end)
    }

    /// Notes a decrypted message for the next acknowledgement, when the contact wants them; never
    /// for an acknowledgement.
    static func note(
        _ epoch: UInt32, _ position: UInt32, ciphertext: String, from contact: Contact, in tx: StoreTransaction, now: Date
    ) throws {
        guard contact.acknowledgements, contact.protocolVersion >= 2 else { return }
        try tx.addPendingAcknowledgement(
            from: contact, epoch: epoch, position: position, ciphertext: ciphertext.filter { !$0.isWhitespace }, at: now)
    }

    /// For a ciphertext that did not open because it was received before (a duplicate, or a copy
    /// whose key is gone): whether it was a message this side acknowledged, which it then
    /// acknowledges again in the next batch (the sender re-sent it; the first acknowledgement was lost).
    public static func acknowledgeAgain(_ ciphertext: String, from contact: Contact, in tx: StoreTransaction, now: Date) throws -> Bool {
        guard contact.acknowledgements else { return false }
        let text = ciphertext.filter { !$0.isWhitespace }
        return try tx.acknowledgeAgain(text, from: contact, at: now)
    }

    /// Applies an acknowledgement that opened (its session already saved): marks what it covers.
    static func receive(
        _ acknowledgement: Acknowledgement, from contact: Contact, in tx: StoreTransaction, now: Date
    ) throws -> AppliedMessage {
        let messages = try tx.acknowledge(
            from: contact, epoch: acknowledgement.epoch, positions: acknowledgement.positions, at: now)
        return AppliedMessage(
            logID: messages.last ?? 0, contact: contact.name,
            content: .acknowledgement(AppliedAcknowledgement(positions: acknowledgement.positions.count, messages: messages)))
    }

    /// Seals and queues the acknowledgements that are due, in the caller's transaction: for each
    /// contact and epoch whose oldest waiting position is older than `delay`, or whose positions no
    /// longer fit one acknowledgement.
    /// - Returns: The outbox ids of the acknowledgements queued.
    @discardableResult
    public static func sendDue(
        in tx: StoreTransaction, delay: TimeInterval = defaultDelay, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> [Int64] {
        var queued: [Int64] = []
        for pending in try tx.pendingAcknowledgements() {
            let span = UInt64(pending.positions[pending.positions.count - 1]) - UInt64(pending.positions[0])
            guard pending.oldest <= now.addingTimeInterval(-delay) || span >= UInt64(Acknowledgement.maxSpan) else { continue }
            let contact = try tx.contact(id: pending.contact.id)
            guard contact.number != nil else { continue }
            var session = try tx.requirePairedSession(for: contact)
            for batch in Acknowledgement.batches(epoch: pending.epoch, positions: pending.positions) {
                let sealed = try session.sealing(.typed(batch.payload), using: &rng)
                session = sealed.session
                queued.append(try tx.enqueueOutbox(sealed.ciphertext, to: contact, kind: .acknowledgement, now: now))
            }
            try tx.saveSession(session, for: contact)
            try tx.markAcknowledgementsQueued(from: contact, epoch: pending.epoch, positions: pending.positions, at: now)
        }
        return queued
    }

    /// Queues again the SMS whose acknowledgement is overdue (the same ciphertext; the peer drops
    /// a copy it has), and gives up, with a sentence, those sent ``maxSends`` times already.
    /// - Returns: The outbox ids queued again and those given up.
    @discardableResult
    public static func resendDue(
        in tx: StoreTransaction, timeout: TimeInterval = defaultTimeout, now: Date
    ) throws -> (resent: [Int64], givenUp: [Int64]) {
        var resent: [Int64] = []
        var givenUp: [Int64] = []
        for item in try tx.outboxAwaitingAcknowledgement(dueBy: now, timeout: timeout) {
            if item.resends + 1 >= maxSends {
                let name = try tx.contact(id: item.contactID).name
                try tx.failUnacknowledged(item.id, error: unacknowledged(by: name, sends: maxSends), at: now)
                givenUp.append(item.id)
            } else {
                try tx.queueForResend(item.id, at: now)
                resent.append(item.id)
            }
        }
        return (resent, givenUp)
    }
}

/// What applying an acknowledgement did.
public struct AppliedAcknowledgement: Sendable, Equatable {
    /// Positions it covered.
    public var positions: Int
    /// The messages every SMS of which is now acknowledged.
    public var messages: [Int64]

    public init(positions: Int, messages: [Int64]) {
        self.positions = positions
        self.messages = messages
    }
}
