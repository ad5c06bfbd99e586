public import Foundation
import SMSCipher
public import Store

/// The receiving side of long texts (docs/PROTOCOL.md §8.2): each part that opens goes into the
/// contact's reassembly state, in the transaction that opened it; a text is logged whole when its
/// last part arrives, or with its gaps marked when it waited too long or made room for another.
///
/// Every part is logged too (status `part`, its segment as text), with its fingerprint, so the SIM
/// copy of a part is recognised like any SMS; the whole text is its own `decrypted` row after it.
public enum LongTexts {
    /// How long an incomplete text waits for its missing parts before it is shown with gaps.
    public static let defaultTimeout: TimeInterval = 3600

    /// Applies one opened part (its session already saved): saves the reassembly state, logs the
    /// part, and logs the text when it is complete (and any text handed out early to make room).
    static func receive(
        _ part: TextPart, _ typed: ReceivedTyped, ciphertext: String, from contact: Contact,
        fingerprint: String?, in tx: StoreTransaction, now: Date
    ) throws -> AppliedMessage {
        var assembly = try reassembly(for: contact, in: tx)
        let (outcome, released) = assembly.add(part, position: typed.position, epoch: typed.epoch, now: now)
        try save(assembly, for: contact, in: tx)
        for text in released { _ = try logPartial(text, from: contact, in: tx, now: now) }

        let position = "part \(part.index) of \(part.count)"
        var applied = AppliedPart(index: part.index, count: part.count, received: 0, text: nil, note: "")
        var status = MessageStatus.part
        switch outcome {
        case .waiting(let received, _):
            applied.received = received
            applied.note =
                "Part \(part.index) of \(part.count) of a long text; \(received) of \(part.count) received, the text is shown once complete."
        case .complete(let whole):
            applied.received = part.count
            applied.text = whole.text()
            applied.note = "Part \(part.index) of \(part.count): the last one missing; the long text is complete."
        case .late(_, _):
            applied.text = part.text
            applied.note = "A late part (\(position)) of a long text already shown with gaps."
        case .duplicate:
            status = .duplicate
            applied.note = "A second copy of \(position) of a long text; dropped."
        case .rejected(let reason):
            applied.note = "A part (\(position)) that no honest sender makes: \(Self.sentence(for: reason)); not used."
        }
        let partID = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: status, text: part.text, ciphertext: ciphertext,
                error: applied.note, fingerprint: fingerprint))
        applied.partLogID = partID
        guard case .complete(let whole) = outcome else {
            return AppliedMessage(logID: partID, contact: contact.name, content: .part(applied))
        }
        let textID = try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: .decrypted, text: whole.text()))
        return AppliedMessage(logID: textID, contact: contact.name, content: .part(applied))
    }

    /// Logs, with their gaps marked, the long texts that waited longer than `timeout` for a part,
    /// in one transaction per call; returns the ids of the rows (status `partial`).
    @discardableResult
    public static func releaseWaiting(store: UnlockedStore, timeout: TimeInterval = defaultTimeout, now: Date) throws -> [Int64] {
        try store.write { tx in try releaseWaiting(in: tx, timeout: timeout, now: now) }
    }

    /// As ``releaseWaiting(store:timeout:now:)``, in the caller's transaction.
    public static func releaseWaiting(in tx: StoreTransaction, timeout: TimeInterval = defaultTimeout, now: Date) throws -> [Int64] {
        var ids: [Int64] = []
        for contact in try tx.contactsWaitingForParts() {
            var assembly = try reassembly(for: contact, in: tx)
            let released = assembly.release(startedBefore: now.addingTimeInterval(-timeout))
            guard !released.isEmpty else { continue }
            try save(assembly, for: contact, in: tx)
            for text in released { ids.append(try logPartial(text, from: contact, in: tx, now: now)) }
        }
        return ids
    }

    /// When the next incomplete long text waits `timeout` and is due for
    /// ``releaseWaiting(in:timeout:now:)``, if any waits.
    public static func nextRelease(in tx: StoreTransaction, timeout: TimeInterval = defaultTimeout) throws -> Date? {
        var earliest: Date?
        for contact in try tx.contactsWaitingForParts() {
            for text in try reassembly(for: contact, in: tx).pending {
                earliest = min(earliest ?? text.startedAt, text.startedAt)
            }
        }
        return earliest.map { $0.addingTimeInterval(timeout) }
    }

    private static func logPartial(_ text: AssembledText, from contact: Contact, in tx: StoreTransaction, now: Date) throws -> Int64 {
        let missing = text.missing.map(String.init).joined(separator: ", ")
        let note =
            "Part\(text.missing.count == 1 ? "" : "s") \(missing) of \(text.segments.count) never arrived; the text is shown with the gaps marked. Ask \(contact.name) to send it again."
        return try tx.appendLog(
            NewLogEntry(
                time: now, direction: .incoming, contact: contact, status: .partial, text: text.text(), error: note))
    }

    private static func reassembly(for contact: Contact, in tx: StoreTransaction) throws -> Reassembly {
        guard let data = try tx.reassembly(for: contact) else { return Reassembly() }
        do {
            return try JSONDecoder().decode(Reassembly.self, from: data)
        } catch {
            throw StoreError.corrupted(
                "The stored parts of \(contact.name)'s long texts cannot be read; restore the database from a backup.")
        }
    }

    private static func save(_ assembly: Reassembly, for contact: Contact, in tx: StoreTransaction) throws {
        let empty = assembly.pending.isEmpty && assembly.handedOut.isEmpty
        try tx.setReassembly(empty ? nil : try JSONEncoder().encode(assembly), for: contact)
    }

    private static func sentence(for reason: Reassembly.Rejection) -> String {
        switch reason {
        case .beforeFirstPosition: "its number reaches before the first message of the chain"
        case .countMismatch(let kept, let claimed): "it claims \(claimed) parts where its text has \(kept)"
        case .overlapsAnotherText: "its text's messages overlap another text's"
        }
    }
}

/// What applying one part of a long text did.
public struct AppliedPart: Sendable, Equatable {
    /// The part's index, 1 to ``count``.
    public var index: Int
    public var count: Int
    /// Parts of its text received so far (0 when unknown: late, duplicate or refused).
    public var received: Int
    /// The whole text when this part completed it; the part's own text when it came late.
    public var text: String?
    /// What happened, in a sentence for the log and the person.
    public var note: String
    /// The log row of the part itself (the message's ``AppliedMessage/logID`` is the whole text's
    /// row when the part completed it).
    public var partLogID: Int64 = 0
}
