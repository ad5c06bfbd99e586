import Foundation
import GSM7
import SMSCipher
public import Store

/// The operations the CLI performs on the gateway's store, each in ONE transaction, so the CLI
/// and a running daemon (another process on the same database) never see half of one.
public enum GatewayActions {
    /// Seals `text` for the contact and queues it: the new ratchet state, the log row (status
    /// `queued`) and the outbox row commit together, before any modem sees the ciphertext. A
    /// running daemon submits it within about 50 ms.
    ///
    /// - Parameters:
    ///   - text: GSM 03.38 text (extension characters count twice) that fits one message.
    ///   - contactName: The contact's name (case-insensitive); it must be paired and have a number.
    ///   - store: The unlocked store.
    ///   - transliterate: Replace common characters GSM-7 lacks (see ``QueuedMessage/replacements``).
    /// - Throws: ``StoreError/notFound(_:)`` (66) for an unknown contact; ``GatewayError`` (65) when
    ///   not paired; ``StoreError/invalidInput(_:)`` (65) without a number; ``SMSCipher/CipherError``
    ///   (65) for text that does not fit or is not GSM-7, naming the characters.
    @discardableResult
    public static func queueText(_ text: String, to contactName: String, store: UnlockedStore, transliterate: Bool) throws -> QueuedMessage {
        var text = text
        var replacements: [Transliteration] = []
        if transliterate {
            let result = GSM7.transliterate(text)
            text = result.text
            replacements = result.replacements
        }
        let plain = text
        return try store.write { tx in
            let contact = try tx.contact(named: contactName)
            guard contact.number != nil else {
                throw StoreError.invalidInput(
                    "The contact \"\(contact.name)\" has no phone number; add one with `smsgw contact edit \(contact.name) --number +44…`.")
            }
            let session = try tx.requirePairedSession(for: contact)
            var rng = SystemRandomNumberGenerator()
            let sealed = try session.sealing(plain, using: &rng)
            try tx.saveSession(sealed.session, for: contact)
            let logID = try tx.appendLog(NewLogEntry(
                direction: .outgoing, contact: contact, status: .queued, text: plain, ciphertext: sealed.ciphertext))
            let outboxID = try tx.enqueueOutbox(sealed.ciphertext, to: contact, messageID: logID)
            return QueuedMessage(
                logID: logID, outboxID: outboxID, position: sealed.position, replacements: replacements, contact: contact.name)
        }
    }

    /// Starts a resynchronisation handshake with the contact over SMS (or repeats the pending one):
    /// saves the session that remembers it, queues the handshake SMS and logs "resync started",
    /// in one transaction. The peer's daemon answers by itself; this side's daemon sends the
    /// handshake again every `resync_retry_seconds` until the answer arrives.
    ///
    /// - Returns: The outbox id of the handshake SMS.
    /// - Throws: ``StoreError/notFound(_:)`` (66), ``GatewayError`` (65) when not paired,
    ///   ``StoreError/invalidInput(_:)`` (65) without a number.
    @discardableResult
    public static func startResync(contactName: String, store: UnlockedStore) throws -> Int64 {
        try store.write { tx in
            let contact = try tx.contact(named: contactName)
            guard contact.number != nil else {
                throw StoreError.invalidInput(
                    "The contact \"\(contact.name)\" has no phone number, so a resync cannot go over SMS; use `smsgw resync \(contact.name) --manual`.")
            }
            let session = try tx.requirePairedSession(for: contact)
            var rng = SystemRandomNumberGenerator()
            let started = session.startingResync(using: &rng)
            try tx.saveSession(started.session, for: contact)
            // Not linked to the outbox row, so the log keeps saying "resync" once it is sent.
            try tx.appendLog(NewLogEntry(
                direction: .outgoing, contact: contact, status: .resync,
                text: "Resync started: handshake queued, waiting for the answer.", ciphertext: started.message))
            return try tx.enqueueOutbox(started.message, to: contact, kind: .handshake)
        }
    }

    /// Modems, the queue and every contact's sync state, from one read snapshot.
    ///
    /// A contact is `failing` after ``failureThreshold`` consecutive verification failures, with
    /// the advice to run `smsgw resync NAME`.
    public static func status(store: UnlockedStore) throws -> GatewayStatus {
        try store.read { reader in
            let counts = try reader.outboxCounts()
            var outbox: [String: Int] = [:]
            for state in OutboxState.allCases { outbox[state.rawValue] = counts[state] ?? 0 }
            // The daemon writes a row for each modem it drives when it starts, and only those.
            let modems = try reader.modemStatuses()
            let modemNames = Set(modems.map(\.name))
            let contacts = try reader.contacts().map { contact in
                let session = try? reader.loadSession(for: contact)
                return GatewayStatus.ContactStatus(
                    name: contact.name, number: contact.number?.e164, pairing: contact.pairingState.rawValue,
                    epoch: session?.epoch, sendPosition: session?.sendPosition, receivePosition: session?.receivePosition,
                    sync: syncState(contact, session: session), quarantined: try reader.quarantineCount(for: contact),
                    lastSentAt: contact.lastSentAt, lastReceivedAt: contact.lastReceivedAt,
                    otherNumbers: contact.otherNumbers.map(\.e164), modem: contact.modem,
                    modemMissing: contact.modem.map { !modemNames.isEmpty && !modemNames.contains($0) } ?? false)
            }
            return GatewayStatus(modems: modems, outbox: outbox, contacts: contacts)
        }
    }

    /// Consecutive verification failures after which a contact shows as failing.
    public static var failureThreshold: Int { GatewayContext.failureThreshold }

    static func syncState(_ contact: Contact, session: Session?) -> GatewayStatus.SyncState {
        let failures = contact.verificationFailures
        guard let session else {
            return .init(state: "not paired", consecutiveFailures: failures,
                         advice: "Pair with `smsgw contact pair \(contact.name) CODE`.")
        }
        if session.isResyncPending {
            return .init(state: "resync pending", consecutiveFailures: failures,
                         advice: "Waiting for \(contact.name)'s gateway to answer the handshake; it is sent again periodically.")
        }
        if failures >= failureThreshold {
            return .init(
                state: "failing", consecutiveFailures: failures,
                advice: "\(failures) messages in a row failed verification; run `smsgw resync \(contact.name)`.")
        }
        return .init(state: "ok", consecutiveFailures: failures, advice: nil)
    }
}
