import Foundation
import Modem
import Operations
import SMSCipher
import Store

/// Turns one received SMS into store changes, inside the caller's transaction: verify, advance,
/// log and record the fingerprint together, so the SIM copy may be deleted only after the commit.
///
/// A ciphertext that opens is applied by ``Operations/IncomingMessage``, the function copy-and-paste
/// decryption shares; what is the daemon's own is everything around it: fingerprints, status
/// reports, plain SMS, and a ciphertext that does not open (logged as rejected, counted against
/// the contact and kept in quarantine for after a resync, where by hand nothing changes).
enum IncomingProcessor {
    /// Processes a single SMS (not part of a concatenated one) received by `modem`.
    ///
    /// - Parameter leftBehind: Whether this exact SMS was processed before and only its deletion
    ///   failed; otherwise a recorded fingerprint means the network delivered a second copy, which
    ///   is logged as a duplicate.
    /// - Parameter resync: Who completes a peer's resync, and the budget of automatic replies.
    static func process(
        _ sms: StoredMessage, modem: String, leftBehind: Bool = false, resync: ResyncSettings = ResyncSettings(),
        in tx: StoreTransaction, now: Date = Date()
    ) throws -> IncomingOutcome {
        if try tx.hasReceivedFingerprint(sms.fingerprint) {
            guard !leftBehind, !sms.isStatusReport else { return .alreadyProcessed }
            let contact = try (try? PhoneNumber(sms.number)).flatMap { try tx.contact(withNumber: $0) }
            // No text at all: the copy may be a plain SMS, whose text must not land in a clear
            // column, and the first copy's row already holds whatever it carried.
            let id = try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .incoming, contact: contact, remoteNumber: sms.number, status: .duplicate,
                    error: "An identical SMS was already received and processed; this copy changed nothing.",
                    fingerprint: sms.fingerprint))
            return .duplicate(contact: contact?.name ?? sms.number, message: id)
        }
        if sms.isStatusReport { return try statusReport(sms, modem: modem, in: tx, now: now) }

        let contact = try (try? PhoneNumber(sms.number)).flatMap { try tx.contact(withNumber: $0) }
        guard let contact else {
            let search = try fromOtherNumber(sms, resync: resync, in: tx, now: now)
            if let outcome = search.outcome { return outcome }
            // Unknown sender: logged, nothing else touched.
            let id = try tx.appendLog(
                NewLogEntry(
                    time: now, direction: .incoming, contact: nil, remoteNumber: sms.number, status: .plain,
                    text: sms.text, fingerprint: sms.fingerprint))
            _ = try tx.recordReceivedFingerprint(sms.fingerprint, at: now)
            return .plain(message: id, untriedContacts: search.untried)
        }
        guard sms.coding == .gsm7, sms.concatenation == nil, let session = try tx.loadSession(for: contact) else {
            return try plain(sms.text, from: contact, fingerprint: sms.fingerprint, in: tx, now: now)
        }
        return try open(sms.text, fingerprint: sms.fingerprint, from: contact, session: session, resync: resync, in: tx, now: now)
    }

    /// An SMS from a number no contact has that a contact's keys open: applied as the contact's,
    /// its number noted in the log row. No outcome when it is none of the tried contacts'
    /// ciphertext; `untried` counts the contacts beyond the search's limit
    /// (``Operations/KeySearch/daemonLimit``), the least recently active.
    private static func fromOtherNumber(
        _ sms: StoredMessage, resync: ResyncSettings, in tx: StoreTransaction, now: Date
    ) throws -> (outcome: IncomingOutcome?, untried: Int) {
        guard sms.coding == .gsm7, sms.concatenation == nil, WireAlphabet.characterCount(sms.text) == ProtocolConstants.wireLength
        else { return (nil, 0) }
        var rng = SystemRandomNumberGenerator()
        let search = try tx.contact(whoseKeysOpen: sms.text, limit: KeySearch.daemonLimit, now: now, using: &rng)
        guard let contact = search.contact, let session = try tx.loadSession(for: contact) else { return (nil, search.untried) }
        let outcome = try open(
            sms.text, fingerprint: sms.fingerprint, from: contact, session: session, resync: resync, in: tx, now: now)
        if let id = outcome.message {
            try tx.setLogSender(id, number: sms.number, note: IncomingMessage.otherNumberNote(sms.number, contact: contact.name))
        }
        return (.otherNumber(outcome, number: sms.number), 0)
    }

    /// Opens a ciphertext from `contact` with its session and applies it, or says what it was
    /// instead: plain text (not a ciphertext at all), a duplicate, this side's own SMS come back,
    /// or a failure (logged as rejected, counted and kept for after a resync).
    private static func open(
        _ text: String, fingerprint: String, from contact: Contact, session: Session, resync: ResyncSettings,
        in tx: StoreTransaction, now: Date
    ) throws -> IncomingOutcome {
        var rng = SystemRandomNumberGenerator()
        let result: OpenResult
        do {
            result = try session.opening(text, now: now, using: &rng)
        } catch CipherError.malformed {
            return try plain(text, from: contact, fingerprint: fingerprint, in: tx, now: now)
        } catch CipherError.duplicate {
            _ = try Acknowledgements.acknowledgeAgain(text, from: contact, in: tx, now: now)
            return try duplicate(text, fingerprint: fingerprint, from: contact, in: tx, now: now)
        } catch {
            // A copy re-sent for want of an acknowledgement, whose key is gone: a duplicate, not a failure.
            if error == .notAuthentic, try Acknowledgements.acknowledgeAgain(text, from: contact, in: tx, now: now) {
                return try duplicate(text, fingerprint: fingerprint, from: contact, in: tx, now: now)
            }
            if error == .notAuthentic, let own = try tx.outgoingMessage(sealedAs: text) {
                return try reflected(text, fingerprint: fingerprint, own: own.id, from: contact, in: tx, now: now)
            }
            return try reject(text, from: contact, error: error, fingerprint: fingerprint, in: tx, now: now)
        }
        _ = try tx.recordReceivedFingerprint(fingerprint, at: now)
        let applied = try IncomingMessage.apply(
            result, ciphertext: text, from: contact, fingerprint: fingerprint, path: .gateway(resync), in: tx, now: now,
            using: &rng)
        return IncomingOutcome(applied)
    }

    private static func duplicate(
        _ text: String, fingerprint: String, from contact: Contact, in tx: StoreTransaction, now: Date
    ) throws -> IncomingOutcome {
        let id = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: .duplicate, ciphertext: text,
                error: CipherError.duplicate.description, fingerprint: fingerprint))
        _ = try tx.recordReceivedFingerprint(fingerprint, at: now)
        return .duplicate(contact: contact.name, message: id)
    }

    /// This side's own SMS (log row `own`) came back from the contact's number: it says nothing
    /// of the contact's keys, so no failure is counted and nothing is kept to retry.
    private static func reflected(
        _ text: String, fingerprint: String, own: Int64, from contact: Contact, in tx: StoreTransaction, now: Date
    ) throws -> IncomingOutcome {
        let id = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: .rejected, ciphertext: text,
                error: IncomingMessage.reflectedNote(message: own, contact: contact.name), fingerprint: fingerprint))
        _ = try tx.recordReceivedFingerprint(fingerprint, at: now)
        return .reflected(contact: contact.name, message: id)
    }

    private static func plain(
        _ text: String, from contact: Contact, fingerprint: String, in tx: StoreTransaction, now: Date
    ) throws -> IncomingOutcome {
        let id = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: .plain, text: text, fingerprint: fingerprint))
        try tx.recordReceived(from: contact, at: now)
        _ = try tx.recordReceivedFingerprint(fingerprint, at: now)
        return .plain(message: id)
    }

    private static func reject(
        _ ciphertext: String, from contact: Contact, error: CipherError, fingerprint: String,
        in tx: StoreTransaction, now: Date
    ) throws -> IncomingOutcome {
        let failures = try tx.incrementFailures(for: contact)
        try EventJournal.noteVerificationFailure(of: contact, failures: failures, in: tx, now: now)
        var reason = error.description
        if failures >= SyncPolicy.failureThreshold {
            reason += " \(failures) messages in a row failed; resynchronise with \(contact.name)."
        }
        let id = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: .rejected, ciphertext: ciphertext,
                error: reason, fingerprint: fingerprint))
        if error != .replayedHandshake && error != .conflictingHandshake {
            try tx.quarantine(ciphertext, from: contact, messageID: id, reason: error.description, now: now)
        }
        _ = try tx.recordReceivedFingerprint(fingerprint, at: now)
        return .rejected(contact: contact.name, failures: failures, message: id)
    }

    private static func statusReport(_ sms: StoredMessage, modem: String, in tx: StoreTransaction, now: Date) throws -> IncomingOutcome {
        guard let reference = sms.messageReference, let status = sms.deliveryStatus else {
            _ = try tx.recordReceivedFingerprint(sms.fingerprint, at: now)
            return .statusReport
        }
        guard let item = try tx.outboxItem(reference: reference, modem: modem) else {
            // The sender may not have recorded this reference yet.
            let submitting = try tx.outboxItems(in: [.submitting]).contains { $0.modem == modem }
            if submitting { return .deferred }
            _ = try tx.recordReceivedFingerprint(sms.fingerprint, at: now)
            return .statusReport
        }
        if status.isDelivered {
            try tx.markOutboxDelivered(item.id, now: now)
        } else if status.isFailed {
            try tx.markOutboxFailed(
                item.id, error: SMSErrorText.deliveryFailed(status: "\(status)"),
                permanent: true, now: now)
        } else {
            // Still pending at the network: keep the report out of the way, the final one follows.
        }
        _ = try tx.recordReceivedFingerprint(sms.fingerprint, at: now)
        return .statusReport
    }

    /// Logs a concatenated plain SMS reassembled from its parts, and records each part.
    ///
    /// A complete group from a paired contact that holds exactly one ciphertext's 160 characters
    /// is opened as one: a phone-only peer's SMS app that chose UCS-2 (or split the text itself)
    /// sends the ciphertext as several parts, and the MAC decides as for any SMS.
    /// - Parameter note: Why only some parts are logged (nil for a complete group); it becomes
    ///   the log entry's note, so the log says which parts arrived.
    static func processParts(
        _ parts: [StoredMessage], note: String? = nil, resync: ResyncSettings = ResyncSettings(), in tx: StoreTransaction,
        now: Date = Date()
    ) throws -> IncomingOutcome {
        let fresh = try parts.filter { try !tx.hasReceivedFingerprint($0.fingerprint) }
        guard !fresh.isEmpty, let first = parts.first else { return .alreadyProcessed }
        // One text per part number: the network may deliver a part twice.
        var byPart: [Int: String] = [:]
        for part in parts { byPart[part.concatenation?.part ?? 0] = byPart[part.concatenation?.part ?? 0] ?? part.text }
        let text = byPart.keys.sorted().compactMap { byPart[$0] }.joined()
        let contact = try (try? PhoneNumber(first.number)).flatMap { try tx.contact(withNumber: $0) }
        if note == nil, let contact, text.count == ProtocolConstants.wireLength, let session = try tx.loadSession(for: contact) {
            let outcome = try open(
                text, fingerprint: first.fingerprint, from: contact, session: session, resync: resync, in: tx, now: now)
            for part in parts { _ = try tx.recordReceivedFingerprint(part.fingerprint, at: now) }
            return outcome
        }
        let id = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, remoteNumber: first.number, status: .plain, text: text,
                error: note, fingerprint: first.fingerprint))
        if let contact { try tx.recordReceived(from: contact, at: now) }
        for part in parts { _ = try tx.recordReceivedFingerprint(part.fingerprint, at: now) }
        return .plain(message: id)
    }

    /// Logs a stored entry the modem could not read, with its raw form as the (encrypted) text,
    /// unless it was logged before (a deletion that failed leaves it to be read again).
    /// - Returns: Whether it was logged now.
    static func recordUnreadable(_ entry: UnreadableEntry, modem: String, in tx: StoreTransaction, now: Date = Date()) throws -> Bool {
        guard try !tx.hasReceivedFingerprint(entry.fingerprint) else { return false }
        try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: nil, status: .unreadable, text: entry.evidence.joined(separator: "\n"),
                error:
                    "Modem \(modem) held an entry at \(entry.location) that could not be read (\(entry.reason)); its raw form is this entry's text, and it was deleted from the modem.",
                fingerprint: entry.fingerprint))
        _ = try tx.recordReceivedFingerprint(entry.fingerprint, at: now)
        return true
    }

    /// After a completed resync, tries the contact's quarantined ciphertexts again
    /// (``Operations/Quarantine/retry(for:path:in:now:using:)``).
    /// - Returns: How many opened and how many were given up.
    static func retryQuarantine(
        for contactName: String, in tx: StoreTransaction, now: Date = Date()
    ) throws -> (opened: Int, givenUp: Int) {
        var rng = SystemRandomNumberGenerator()
        let retried = try Quarantine.retry(
            for: try tx.contact(named: contactName), path: .gateway(ResyncSettings()), in: tx, now: now, using: &rng)
        return (retried.opened, retried.givenUp)
    }
}
