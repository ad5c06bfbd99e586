import Foundation
import SMSCipher
import Store

/// The facts about one incoming handshake that every step of applying it needs.
struct HandshakeContext {
    var ciphertext: String
    var contact: Contact
    var fingerprint: String?
    var path: ReceivePath
    var now: Date
}

extension IncomingMessage {
    /// Saves and logs what a resync handshake did (docs/PROTOCOL.md §6.3), in the caller's
    /// transaction; ``IncomingMessage`` says how the two paths differ.
    ///
    /// A completed resync is its own log status (``Store/MessageStatus/resynced``), distinct from
    /// a handshake that changed no keys (``Store/MessageStatus/resync``).
    static func applyResync(
        _ opened: Session, event opening: ResyncEvent, _ handshake: HandshakeContext, in tx: StoreTransaction,
        using rng: inout some RandomNumberGenerator
    ) throws -> AppliedMessage {
        let contact = handshake.contact
        var session = opened
        var event = opening
        var note: String
        var withheld: String?
        switch event.outcome {
        case .requested:
            note = "Resync requested by \(contact.name) (epoch \(event.epoch), code \(session.resyncRequest?.code ?? "?"))"
            guard case .gateway(let settings) = handshake.path, settings.accept == .auto else {
                note += ", waiting for the operator: \(waiting(contact))"
                break
            }
            switch try tx.admitAutomaticReply(to: contact, limit: settings.automaticRepliesPerHour, now: handshake.now) {
            case .admitted:
                let accepted = try session.acceptingResync(now: handshake.now, using: &rng)
                guard case .resync(let answer) = accepted.opened else { break }
                session = accepted.session
                event = answer
                note += " and answered automatically ([resync] accept = \"auto\"): new keys in force."
            case .withheld(let first):
                withheld = first ? budgetNote(contact, settings) : nil
                note += "; the automatic answer is over the hourly budget, so it waits for the operator: \(waiting(contact))"
            }
        case .completed:
            note = "Resync completed: new keys in force (epoch \(event.epoch))."
        case .repeated:
            note = "Resync handshake repeated (epoch \(event.epoch)); nothing changed."
        case .superseded:
            note = "Resync handshake superseded by this side's own (epoch \(event.epoch)); nothing changed."
        }
        var answer = HandshakeAnswer.none
        if let reply = event.reply {
            switch handshake.path {
            case .byHand:
                answer = .byHand(reply)
                if event.outcome == .repeated {
                    note =
                        "Resync handshake repeated (epoch \(event.epoch)); its answer was given once more to send back by hand, in case the first was lost."
                }
            case .gateway(let settings) where event.outcome == .repeated:
                switch try tx.admitAutomaticReply(to: contact, limit: settings.automaticRepliesPerHour, now: handshake.now) {
                case .admitted:
                    answer = .queued(outboxID: try tx.enqueueOutbox(reply, to: contact, kind: .handshake, now: handshake.now))
                    note = "Resync handshake repeated (epoch \(event.epoch)); answered once more, in case the first answer was lost."
                case .withheld(let first):
                    // The state is not saved as answered, so a later copy may still get its one answer.
                    try tx.recordReceived(from: contact, at: handshake.now)
                    let id = try log(note, status: .resync, handshake, error: first ? budgetNote(contact, settings) : nil, in: tx)
                    return AppliedMessage(
                        logID: id, contact: contact.name,
                        content: .resync(
                            AppliedResync(
                                epoch: event.epoch, outcome: event.outcome, completed: false,
                                requestCode: session.resyncRequest?.code, answer: .withheld)))
                }
            case .gateway:
                answer = .queued(outboxID: try tx.enqueueOutbox(reply, to: contact, kind: .handshake, now: handshake.now))
            }
        }
        try tx.saveSession(session, for: contact)
        try tx.recordReceived(from: contact, at: handshake.now)
        let completed = event.outcome == .completed
        let id = try log(note, status: completed ? .resynced : .resync, handshake, error: withheld, in: tx)
        if completed { try tx.completeResync(for: contact) }
        return AppliedMessage(
            logID: id, contact: contact.name,
            content: .resync(
                AppliedResync(
                    epoch: event.epoch, outcome: event.outcome, completed: completed,
                    requestCode: session.resyncRequest?.code, answer: answer)))
    }

    private static func waiting(_ contact: Contact) -> String {
        "confirm the code with \(contact.name), then accept the request, or reject it if \(contact.name) did not ask."
    }

    private static func budgetNote(_ contact: Contact, _ settings: ResyncSettings) -> String {
        "An automatic reply to \(contact.name) was withheld: \(settings.automaticRepliesPerHour) were sent in the last hour, the limit of [replies] per_contact_per_hour. Replayed SMS cannot make the gateway send more; further replies this hour are withheld without another note."
    }

    private static func log(
        _ note: String, status: MessageStatus, _ handshake: HandshakeContext, error: String?, in tx: StoreTransaction
    ) throws -> Int64 {
        try tx.appendLog(
            NewLogEntry(
                time: handshake.now, direction: .incoming, contact: handshake.contact, status: status, text: note,
                ciphertext: handshake.ciphertext, error: error, fingerprint: handshake.fingerprint))
    }
}
