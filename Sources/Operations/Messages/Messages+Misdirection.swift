public import Foundation
import SMSCipher
public import Store

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
            for contact in try reader.contacts() where contact.id != pasted.id {
                guard let session = try? reader.loadSession(for: contact) else { continue }
                do throws(CipherError) {
                    _ = try session.opening(sms, now: now, using: &rng)
                    return .fromAnotherContact(named: contact.name, pastedAs: pasted.name, alreadyReceived: false)
                } catch .notAuthentic {
                    continue
                } catch {
                    // Its keys verified it (a duplicate, a message beyond the window, a handshake
                    // out of turn): it is that contact's, whatever became of it.
                    return .fromAnotherContact(named: contact.name, pastedAs: pasted.name, alreadyReceived: error == .duplicate)
                }
            }
            return nil
        }
    }
}
