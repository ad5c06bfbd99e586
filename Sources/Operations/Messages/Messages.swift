public import Foundation
import GSM7
import SMSCipher
public import Store

/// The messages a person writes and reads: sealed for copy and paste, queued for the daemon, or
/// pasted in to be opened. Each is one store transaction, so a running daemon (another process
/// on the same database) never sees half of one, and a crash never reuses a pad.
public enum Messages {
    /// The messages a text would cost, for a counter or a "this takes 3 SMS" before sending:
    /// computed by the very split that sealing uses (docs/PROTOCOL.md §8.1).
    ///
    /// - Throws: ``MessageError/partLimit(_:)``; ``SMSCipher/CipherError`` for a text that is not
    ///   GSM-7 or needs more than `maxParts` messages.
    public static func plan(_ text: String, transliterate: Bool = false, maxParts: Int = defaultMaxParts) throws -> TextPlan {
        let prepared = try PreparedText(text, transliterate: transliterate)
        let split = try prepared.split(maxParts: maxParts)
        return TextPlan(septets: split.septetCount, messages: split.messageCount, remaining: split.remainingInLastMessage)
    }

    /// Parts a text may be split into unless the caller says otherwise (docs/PROTOCOL.md §8.1).
    public static let defaultMaxParts = 8

    /// Seals `text` for the contact to copy and paste: the new ratchet state and a log row
    /// (`encrypted`, the text and the ciphertexts) commit together before the ciphertexts are returned.
    ///
    /// - Parameters:
    ///   - text: GSM 03.38 text (extension characters count twice); over 141 septets it becomes
    ///     parts, one ciphertext each, at most `maxParts`.
    ///   - contactName: The contact's name (without regard to case); it must be paired.
    ///   - transliterate: Replace common characters GSM-7 lacks first (see ``EncryptedMessage/replacements``).
    ///   - maxParts: The most messages the text may take, 1 to 32.
    ///   - store: The unlocked store.
    ///   - now: The clock, for the log and the contact's last-sent time.
    ///   - rng: The messages' fresh randomness.
    /// - Throws: ``MessageError``, ``MessageError/keysRestoredBeforeText(contact:)`` (conflict) while
    ///   the contact's keys are restored from a backup and not resynced since
    ///   (``Store/Contact/keysRestoredAt``); ``Store/StoreError/notFound(_:)`` for an unknown contact;
    ///   ``ContactError/notPaired(contact:)``; ``SMSCipher/CipherError`` for a text that does not
    ///   fit or is not GSM-7, naming the characters.
    public static func encrypt(
        _ text: String, for contactName: String, transliterate: Bool = false, maxParts: Int = defaultMaxParts,
        store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> EncryptedMessage {
        let prepared = try PreparedText(text, transliterate: transliterate)
        let split = try prepared.split(maxParts: maxParts)
        return try store.write(.contact(named: contactName)) { tx in
            let contact = try tx.contact(named: contactName)
            let sealed = try seal(prepared, split, for: contact, logged: .encrypted, in: tx, now: now, using: &rng)
            try tx.recordSent(to: contact, at: now)
            return EncryptedMessage(
                logID: sealed.logID, contact: contact.name, ciphertexts: sealed.messages.map(\.ciphertext),
                position: sealed.messages[0].position, replacements: prepared.replacements)
        }
    }

    /// Seals `text` for the contact and queues it for the daemon: the new ratchet state, the log
    /// row (`queued`) and one outbox row per SMS commit together, before any modem sees a
    /// ciphertext. A running daemon submits them within about 50 ms, in order.
    ///
    /// - Parameters: As ``encrypt(_:for:transliterate:maxParts:store:now:using:)``; the contact
    ///   must also have a number. `actor` (with the client's `address`) is who sends, for the
    ///   audit line (`send`, the contact) written in the same transaction; nil writes none.
    /// - Throws: As ``encrypt(_:for:transliterate:maxParts:store:now:using:)``, and
    ///   ``ContactError/noNumber(contact:purpose:)`` (unavailable) for a contact without a number,
    ///   ``ContactError/noNumberNorPairing(contact:)`` (unavailable) for one not paired either.
    @discardableResult
    public static func queue(
        _ text: String, to contactName: String, transliterate: Bool = false, maxParts: Int = defaultMaxParts,
        by actor: AuditActor? = nil, address: String? = nil, store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> QueuedMessage {
        let prepared = try PreparedText(text, transliterate: transliterate)
        let split = try prepared.split(maxParts: maxParts)
        return try store.write(.contact(named: contactName)) { tx in
            try queue(prepared, split, to: contactName, by: actor, address: address, in: tx, now: now, using: &rng).queued
        }
    }

    /// The queueing step of ``queue(_:to:transliterate:maxParts:by:address:store:now:using:)`` in
    /// the caller's transaction (the HTTP API adds its idempotency key to the same one), with the
    /// log entry it wrote (the API answers from it rather than reading the message back). Every
    /// audited send, the console's and the API's, is audited here.
    static func queue(
        _ prepared: PreparedText, _ split: LongText, to contactName: String, by actor: AuditActor?, address: String?,
        in tx: StoreTransaction, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> (queued: QueuedMessage, logged: NewLogEntry) {
        let contact = try tx.contact(named: contactName).requiringNumber(for: .message, in: tx)
        let sealed = try seal(prepared, split, for: contact, logged: .queued, in: tx, now: now, using: &rng)
        // Parts are sent again until acknowledged when the contact has acknowledgements on (§9.2).
        let awaits = contact.acknowledgements && sealed.messages.count > 1
        let outboxIDs = try sealed.messages.map { message in
            try tx.enqueueOutbox(
                message.ciphertext, to: contact, messageID: sealed.logID,
                sealedAt: SealedPosition(epoch: message.session.epoch, position: message.position, awaitsAcknowledgement: awaits),
                contactReadHere: true, now: now)
        }
        let queued = QueuedMessage(
            logID: sealed.logID, outboxID: outboxIDs[0], position: sealed.messages[0].position,
            replacements: prepared.replacements, contact: contact.name, parts: outboxIDs.count)
        if let actor { try Audit.record(.send, by: actor, target: contact.name, address: address, in: tx, now: now) }
        return (queued, sealed.logged)
    }

    /// Seals every message of the split with the contact's session, at consecutive positions,
    /// saves the new state and logs the text with its ciphertexts (one per line), in the caller's
    /// transaction; the state is saved before anything can leave, so a pad is never used twice.
    private static func seal(
        _ prepared: PreparedText, _ split: LongText, for contact: Contact, logged status: MessageStatus,
        in tx: StoreTransaction, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> (messages: [Sealed], logID: Int64, logged: NewLogEntry) {
        if split.messageCount > 1, contact.protocolVersion < 2 {
            throw MessageError.peerReadsOneMessage(contact: contact.name, septets: split.septetCount)
        }
        // Rewound keys seal what the peer already opened positions for; a resync handshake is no text and still goes.
        if contact.keysRestoredAt != nil { throw MessageError.keysRestoredBeforeText(contact: contact.name) }
        var session = try tx.requirePairedSession(for: contact)
        var messages: [Sealed] = []
        for plaintext in split.plaintexts {
            let sealed = try session.sealing(plaintext, using: &rng)
            session = sealed.session
            messages.append(sealed)
        }
        try tx.saveSession(session, for: contact)
        let logged = NewLogEntry(
            time: now, direction: .outgoing, contact: contact, status: status, text: prepared.text,
            ciphertext: messages.map(\.ciphertext).joined(separator: "\n"))
        return (messages, try tx.appendLog(logged), logged)
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
    /// - Throws: ``MessageError/ownMessage(id:contact:)`` for an SMS this side sealed, and
    ///   ``MessageError/fromAnotherContact(named:pastedAs:alreadyReceived:)`` for one another
    ///   contact's keys open (see ``misdirection(of:pastedAs:store:now:using:)``);
    ///   ``SMSCipher/CipherError`` when it does not verify otherwise (altered, a duplicate, too far
    ///   ahead); ``Store/StoreError/notFound(_:)``; ``ContactError/notPaired(contact:)``.
    public static func decrypt(
        _ ciphertext: String, from contactName: String, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> AppliedMessage {
        let text = ciphertext.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            return try store.write(.contact(named: contactName)) { tx in
                let contact = try tx.contact(named: contactName)
                try refuseAsNoMessage(text)
                let result = try tx.requirePairedSession(for: contact).opening(text, now: now, using: &rng)
                return try IncomingMessage.apply(
                    result, ciphertext: text, from: contact, fingerprint: nil, path: .byHand, in: tx, now: now, using: &rng)
            }
        } catch CipherError.notAuthentic {
            throw try misdirection(of: text, pastedAs: contactName, store: store, now: now, using: &rng) ?? CipherError.notAuthentic
        }
    }
}

extension Messages {
    /// Refuses a paste that cannot be one SMS in words that say what happened: nothing at all, or
    /// as many characters as several SMS pasted together (any other length is the cipher's).
    static func refuseAsNoMessage(_ ciphertext: String) throws(MessageError) {
        let characters = WireAlphabet.characterCount(ciphertext)
        if characters == 0 { throw .nothingToDecrypt }
        if characters > ProtocolConstants.wireLength, characters % ProtocolConstants.wireLength == 0 {
            throw .severalMessages(characters: characters)
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

    /// The messages the text becomes (docs/PROTOCOL.md §8.1).
    func split(maxParts: Int) throws -> LongText {
        guard (1...TextPart.maxCount).contains(maxParts) else { throw MessageError.partLimit(maxParts) }
        return try LongText(text, maxParts: maxParts)
    }
}

extension Contact {
    /// The contact, when it has a number; the one rule by which a text and a resync over SMS both
    /// refuse a copy-and-paste peer. A text to one that is not paired either says both, so that
    /// adding the number is not followed by "not paired".
    ///
    /// - Throws: ``ContactError/noNumber(contact:purpose:)`` (unavailable), or
    ///   ``ContactError/noNumberNorPairing(contact:)`` (unavailable) for a text.
    func requiringNumber(for purpose: ContactError.Purpose, in reader: StoreReader) throws -> Contact {
        guard number == nil else { return self }
        if purpose == .message, try reader.session(for: self) == nil { throw ContactError.noNumberNorPairing(contact: name) }
        throw ContactError.noNumber(contact: name, purpose: purpose)
    }
}
