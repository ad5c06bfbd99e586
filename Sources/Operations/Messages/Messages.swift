public import Foundation
import GSM7
import SMSCipher
public import Store

/// The messages a person writes and reads: sealed for copy and paste, queued for the daemon, or
/// pasted in to be opened. Each is one store transaction, so a running daemon (another process
/// on the same database) never sees half of one, and a crash never reuses a pad.
public enum Messages {
    /// Seals `text` for the contact to copy and paste: the new ratchet state and a log row
    /// (`encrypted`, the text and the ciphertext) commit together before the ciphertext is returned.
    ///
    /// - Parameters:
    ///   - text: GSM 03.38 text (extension characters count twice) that fits one message.
    ///   - contactName: The contact's name (without regard to case); it must be paired.
    ///   - transliterate: Replace common characters GSM-7 lacks first (see ``EncryptedMessage/replacements``).
    ///   - store: The unlocked store.
    ///   - now: The clock, for the log and the contact's last-sent time.
    ///   - rng: The message's fresh randomness.
    /// - Throws: ``MessageError/emptyText``; ``Store/StoreError/notFound(_:)`` for an unknown
    ///   contact; ``ContactError/notPaired(contact:)``; ``SMSCipher/CipherError`` for a text that
    ///   does not fit or is not GSM-7, naming the characters.
    public static func encrypt(
        _ text: String, for contactName: String, transliterate: Bool = false, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> EncryptedMessage {
        let prepared = try PreparedText(text, transliterate: transliterate)
        return try store.write { tx in
            let contact = try tx.contact(named: contactName)
            let (sealed, logID) = try seal(prepared, for: contact, logged: .encrypted, in: tx, now: now, using: &rng)
            try tx.recordSent(to: contact, at: now)
            return EncryptedMessage(
                logID: logID, contact: contact.name, ciphertext: sealed.ciphertext, position: sealed.position,
                replacements: prepared.replacements)
        }
    }

    /// Seals `text` for the contact and queues it for the daemon: the new ratchet state, the log
    /// row (`queued`) and the outbox row commit together, before any modem sees the ciphertext. A
    /// running daemon submits it within about 50 ms.
    ///
    /// - Parameters: As ``encrypt(_:for:transliterate:store:now:using:)``; the contact must also
    ///   have a number.
    /// - Throws: As ``encrypt(_:for:transliterate:store:now:using:)``, and
    ///   ``ContactError/noNumber(contact:purpose:)`` (unavailable) for a contact without a number.
    @discardableResult
    public static func queue(
        _ text: String, to contactName: String, transliterate: Bool = false, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> QueuedMessage {
        let prepared = try PreparedText(text, transliterate: transliterate)
        return try store.write { tx in
            let contact = try tx.contact(named: contactName).requiringNumber(for: .message)
            let (sealed, logID) = try seal(prepared, for: contact, logged: .queued, in: tx, now: now, using: &rng)
            let outboxID = try tx.enqueueOutbox(sealed.ciphertext, to: contact, messageID: logID, now: now)
            return QueuedMessage(
                logID: logID, outboxID: outboxID, position: sealed.position, replacements: prepared.replacements,
                contact: contact.name)
        }
    }

    /// Seals the text with the contact's session, saves the new state and logs the message with
    /// its text and ciphertext, in the caller's transaction; the state is saved before anything
    /// can leave, so a pad is never used twice.
    private static func seal(
        _ prepared: PreparedText, for contact: Contact, logged status: MessageStatus, in tx: StoreTransaction, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> (Sealed, logID: Int64) {
        let sealed = try tx.requirePairedSession(for: contact).sealing(prepared.text, using: &rng)
        try tx.saveSession(sealed.session, for: contact)
        let logID = try tx.appendLog(NewLogEntry(
            time: now, direction: .outgoing, contact: contact, status: status, text: prepared.text, ciphertext: sealed.ciphertext))
        return (sealed, logID)
    }

    /// Opens a ciphertext a person pasted (copy and paste): verifies it, then commits the new
    /// state, the log row and the receive time together. A failure changes nothing; what differs
    /// from the daemon's receive path is written down at ``IncomingMessage``.
    ///
    /// - Parameters:
    ///   - ciphertext: The 160 characters; spaces and line breaks around and inside are ignored.
    ///   - contactName: The contact's name; it must be paired.
    ///   - store: The unlocked store.
    ///   - now: The clock, for the window's key ages and the log.
    ///   - rng: Randomness for a resync answer.
    /// - Returns: The text, or what a resync handshake did (with the answer to send back by hand).
    /// - Throws: ``SMSCipher/CipherError`` when it does not verify (altered, a duplicate, too far
    ///   ahead); ``Store/StoreError/notFound(_:)``; ``ContactError/notPaired(contact:)``.
    public static func decrypt(
        _ ciphertext: String, from contactName: String, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> AppliedMessage {
        let text = ciphertext.trimmingCharacters(in: .whitespacesAndNewlines)
        return try store.write { tx in
            let contact = try tx.contact(named: contactName)
            let result = try tx.requirePairedSession(for: contact).opening(text, now: now, using: &rng)
            return try IncomingMessage.apply(
                result, ciphertext: text, from: contact, fingerprint: nil, path: .byHand, in: tx, now: now, using: &rng)
        }
    }
}

/// A text made ready to seal: transliterated when asked, and refused when empty before any key
/// step is spent on it (a blank line of a batch, an empty pipe).
struct PreparedText {
    var text: String
    var replacements: [Transliteration] = []

    init(_ text: String, transliterate: Bool) throws(MessageError) {
        if transliterate {
            let result = GSM7.transliterate(text)
            self.text = result.text
            replacements = result.replacements
        } else {
            self.text = text
        }
        guard self.text.contains(where: { !$0.isWhitespace }) else { throw .emptyText }
    }
}

extension Contact {
    /// The contact, when it has a number; the one rule by which a text and a resync over SMS both
    /// refuse a copy-and-paste peer.
    ///
    /// - Throws: ``ContactError/noNumber(contact:purpose:)`` (unavailable).
    func requiringNumber(for purpose: ContactError.Purpose) throws(ContactError) -> Contact {
        guard number != nil else { throw .noNumber(contact: name, purpose: purpose) }
        return self
    }
}
