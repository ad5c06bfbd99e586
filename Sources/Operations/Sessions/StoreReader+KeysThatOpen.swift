public import Foundation
public import SMSCipher
public import Store

extension StoreReader {
    /// The paired contact, other than `excluded`, whose keys verify `ciphertext`, and whether
    /// that contact's message was received before (a duplicate there); nil when none does, or
    /// when `ciphertext` is no ciphertext at all. The sessions are only tried: nothing is saved.
    ///
    /// A copy-and-paste decryption that names the wrong contact says whose the message is with
    /// it, and the daemon applies a message from a number no contact has to the contact whose
    /// keys open it (a peer with a new SIM): the MAC, not the sender's number, says who wrote it.
    public func contact(
        whoseKeysOpen ciphertext: String, excluding excluded: Contact? = nil, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> (contact: Contact, alreadyReceived: Bool)? {
        // Read once, not once per contact; what is no ciphertext no contact's keys will read.
        guard let received = try? ReceivedCiphertext(ciphertext) else { return nil }
        for contact in try contacts() where contact.id != excluded?.id {
            guard let session = try? loadSession(for: contact) else { continue }
            do throws(CipherError) {
                _ = try session.opening(received, now: now, using: &rng)
                return (contact, false)
            } catch .notAuthentic {
                continue
            } catch {
                // Its keys verified it (a duplicate, a message beyond the window, a handshake out
                // of turn): it is that contact's, whatever became of it.
                return (contact, error == .duplicate)
            }
        }
        return nil
    }
}
