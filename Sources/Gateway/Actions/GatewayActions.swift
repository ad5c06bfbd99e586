public import Foundation
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
    ///   (65) for text that does not fit or is not GSM-7, naming the characters; ``GatewayError``
    ///   (65) for an empty text.
    @discardableResult
    public static func queueText(_ text: String, to contactName: String, store: UnlockedStore, transliterate: Bool) throws -> QueuedMessage {
        var text = text
        var replacements: [Transliteration] = []
        if transliterate {
            let result = GSM7.transliterate(text)
            text = result.text
            replacements = result.replacements
        }
        try requireText(text)
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

    /// Refuses a text that is empty or only spaces and line breaks, before any key step is spent
    /// on it (a blank line of `send --lines`, an empty pipe into `encrypt`).
    ///
    /// - Throws: ``GatewayError`` (65).
    public static func requireText(_ text: String) throws {
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw GatewayError(.dataError, "The text is empty; give a message (nothing was encrypted and no key was used).")
        }
    }

    /// Modems, the queue and every contact's sync state, from one read snapshot.
    ///
    /// A contact is `failing` after ``failureThreshold`` consecutive verification failures, with
    /// the advice to run `smsgw resync NAME`.
    public static func status(store: UnlockedStore, now: Date = Date()) throws -> GatewayStatus {
        try store.read { reader in
            let counts = try reader.outboxCounts()
            var outbox: [String: Int] = [:]
            for state in OutboxState.allCases { outbox[state.rawValue] = counts[state] ?? 0 }
            return GatewayStatus(
                modems: try reader.modemStatuses(), outbox: outbox,
                queue: try GatewayStatus.queueEntries(in: reader, now: now),
                contacts: try reader.contacts().map { try contactStatus($0, in: reader) })
        }
    }

    /// Every contact, by name, as `contact list` and `status` show them.
    public static func contacts(store: UnlockedStore) throws -> [ContactStatus] {
        try store.read { reader in try reader.contacts().map { try contactStatus($0, in: reader) } }
    }

    /// One contact, by name (without regard to case), as `contact show` shows it.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` (66) for an unknown name.
    public static func contact(named name: String, store: UnlockedStore) throws -> ContactStatus {
        try store.read { reader in try contactStatus(reader.contact(named: name), in: reader) }
    }

    /// A key state that cannot be read shows as not paired here; the commands that use it say why.
    static func contactStatus(_ contact: Contact, in reader: StoreReader) throws -> ContactStatus {
        let session = try? reader.loadSession(for: contact)
        // The daemon writes a row for each modem it drives when it starts, and only those.
        let modemNames = Set(try reader.modemStatuses().map(\.name))
        let modemMissing = contact.modem.map { !modemNames.isEmpty && !modemNames.contains($0) } ?? false
        let attempts = try session?.pendingResyncMessage.map { try reader.outboxAttempts(of: $0, to: contact).count } ?? 0
        return ContactStatus(
            contact, session: session, sync: syncState(contact, session: session, handshakeAttempts: attempts),
            lastResync: lastResync(session), quarantined: try reader.quarantineCount(for: contact),
            modemMissing: modemMissing)
    }

    /// Consecutive verification failures after which a contact shows as failing.
    public static var failureThreshold: Int { GatewayContext.failureThreshold }

    /// - Parameter handshakeAttempts: How many times the pending handshake was queued.
    static func syncState(_ contact: Contact, session: Session?, handshakeAttempts: Int = 0) -> GatewayStatus.SyncState {
        let failures = contact.verificationFailures
        guard let session else {
            return .init(state: "not paired", consecutiveFailures: failures,
                         advice: "Pair with `smsgw contact pair \(contact.name) CODE`.")
        }
        if let request = session.resyncRequest {
            return .init(
                state: "resync requested", consecutiveFailures: failures,
                advice: "\(contact.name)'s gateway asks for a resync (code \(request.code)): confirm the code with \(contact.name) by phone, then run `smsgw resync \(contact.name) --accept`, or `smsgw resync \(contact.name) --reject` if \(contact.name) did not ask.")
        }
        if let code = session.pendingResyncCode, handshakeAttempts >= ResyncCoordinator.maxAttempts {
            return .init(
                state: "resync unanswered", consecutiveFailures: failures,
                advice: "The handshake (code \(code)) went unanswered \(handshakeAttempts) times: check with \(contact.name) that their gateway runs and their operator accepted it, then run `smsgw resync \(contact.name) --restart`.")
        }
        if let code = session.pendingResyncCode {
            return .init(
                state: "resync pending", consecutiveFailures: failures,
                advice: "Waiting for \(contact.name)'s gateway to answer the handshake (code \(code), which \(contact.name)'s operator confirms before accepting); it is sent again with growing pauses.")
        }
        if failures >= failureThreshold {
            return .init(
                state: "failing", consecutiveFailures: failures,
                advice: "\(failures) messages in a row failed verification; run `smsgw resync \(contact.name)`.")
        }
        return .init(state: "ok", consecutiveFailures: failures, advice: nil)
    }
}
