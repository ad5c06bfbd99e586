import Foundation
import SMSCipher
import Store

extension Messages {
    /// Whose a pasted ciphertext is, when it did not verify for the contact it was pasted as and
    /// this side can tell: an SMS it sealed itself (the likeliest slip when copying by hand is
    /// pasting one's own message back), or one that another contact's keys open. Only reads:
    /// nothing is saved, no failure is counted, and the other sessions are only tried.
    ///
    /// - Returns: The error that says whose it is, or nil when neither is the case (altered,
    ///   too old, or from someone this side does not know).
    static func misdirection(
        of ciphertext: String, pastedAs contactName: String, store: UnlockedStore, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> MessageError? {
        // As the sender wrote it, whatever copying added (the log keeps the sender's form).
        let sms = (try? WireAlphabet.normalized(ciphertext)) ?? String(ciphertext.filter { !$0.isWhitespace })
        return try store.read { reader in
            if let own = try reader.outgoingMessage(sealedAs: sms) { return .ownMessage(id: own.id, contact: own.contact) }
            let pasted = try reader.contact(named: contactName)
            // Every contact's keys: a person pasted it, no stranger sent it (the daemon's search is limited).
            let found = try reader.contact(whoseKeysOpen: sms, excluding: pasted, now: now, using: &rng)
            guard let contact = found.contact else { return nil }
            return .fromAnotherContact(named: contact.name, pastedAs: pasted.name, alreadyReceived: found.alreadyReceived)
        }
    }
}
