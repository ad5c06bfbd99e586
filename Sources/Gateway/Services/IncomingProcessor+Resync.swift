import Foundation
import SMSCipher
import Store

extension IncomingProcessor {
    /// Saves and logs what a resync handshake did (docs/PROTOCOL.md §6.3), in the caller's
    /// transaction.
    ///
    /// A peer's request waits for the operator unless `[resync] accept = "auto"`; then it is answered
    /// at once if the contact's budget of automatic replies allows, and otherwise waits too. A
    /// repeat's answer is sent only within that budget. A completed resync is its own log status
    /// (``MessageStatus/resynced``), distinct from a handshake that changed nothing.
    static func applyResync(
        _ session: Session, event: ResyncEvent, ciphertext: String, from contact: Contact, fingerprint: String?,
        settings: ResyncSettings, in tx: StoreTransaction, now: Date
    ) throws -> IncomingOutcome {
        var session = session
        var event = event
        var note: String
        var withheld: String?
        switch event.outcome {
        case .requested:
            let code = session.resyncRequest?.code ?? "?"
            note = "Resync requested by \(contact.name)'s gateway (epoch \(event.epoch), code \(code))"
            if settings.accept == .auto {
                switch try tx.admitAutomaticReply(to: contact, limit: settings.automaticRepliesPerHour, now: now) {
                case .admitted:
                    var rng = SystemRandomNumberGenerator()
                    let accepted = try session.acceptingResync(now: now, using: &rng)
                    guard case .resync(let answer) = accepted.opened else { break }
                    session = accepted.session
                    event = answer
                    note += " and answered automatically ([resync] accept = \"auto\"): new keys in force."
                case .withheld(let first):
                    withheld = first ? budgetNote(contact, settings) : nil
                    note += "; the automatic answer is over the hourly budget, so it waits for the operator: \(waiting(contact))"
                }
            } else {
                note += ", waiting for the operator: \(waiting(contact))"
            }
        case .completed:
            note = "Resync completed: new keys in force (epoch \(event.epoch))."
        case .repeated:
            note = "Resync handshake repeated (epoch \(event.epoch)); nothing changed."
        case .superseded:
            note = "Resync handshake superseded by this side's own (epoch \(event.epoch)); nothing changed."
        }
        if event.outcome == .repeated, let reply = event.reply {
            switch try tx.admitAutomaticReply(to: contact, limit: settings.automaticRepliesPerHour, now: now) {
            case .admitted:
                try tx.enqueueOutbox(reply, to: contact, kind: .handshake, now: now)
                note = "Resync handshake repeated (epoch \(event.epoch)); answered once more, in case the first answer was lost."
            case .withheld(let first):
                // Not marked as answered, so a later copy may still get its one answer.
                withheld = first ? budgetNote(contact, settings) : nil
                try tx.recordReceived(from: contact, at: now)
                let id = try log(
                    note, status: .resync, contact: contact, ciphertext: ciphertext, fingerprint: fingerprint, error: withheld,
                    in: tx, now: now)
                return .resync(contact: contact.name, completed: false, message: id)
            }
        } else if event.outcome == .completed, let reply = event.reply {
            try tx.enqueueOutbox(reply, to: contact, kind: .handshake, now: now)
        }
        try tx.saveSession(session, for: contact)
        try tx.recordReceived(from: contact, at: now)
        let completed = event.outcome == .completed
        let id = try log(
            note, status: completed ? .resynced : .resync, contact: contact, ciphertext: ciphertext,
            fingerprint: fingerprint, error: withheld, in: tx, now: now)
        if completed { try tx.resetFailures(for: contact) }
        return .resync(contact: contact.name, completed: completed, message: id)
    }

    private static func waiting(_ contact: Contact) -> String {
        "confirm the code with \(contact.name), then run `smsgw resync \(contact.name) --accept`, or `smsgw resync \(contact.name) --reject` if \(contact.name) did not ask."
    }

    private static func budgetNote(_ contact: Contact, _ settings: ResyncSettings) -> String {
        "An automatic reply to \(contact.name) was withheld: \(settings.automaticRepliesPerHour) were sent in the last hour, the limit of [replies] per_contact_per_hour. Replayed SMS cannot make the gateway send more; further replies this hour are withheld without another note."
    }

    private static func log(
        _ note: String, status: MessageStatus, contact: Contact, ciphertext: String, fingerprint: String?, error: String?,
        in tx: StoreTransaction, now: Date
    ) throws -> Int64 {
        try tx.appendLog(NewLogEntry(
            time: now, direction: .incoming, contact: contact, status: status, text: note, ciphertext: ciphertext,
            error: error, fingerprint: fingerprint))
    }
}
