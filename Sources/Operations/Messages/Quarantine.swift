public import Foundation
import SMSCipher
public import Store

/// Incoming ciphertexts that failed verification, kept to try again after the next resync.
public enum Quarantine {
    /// How many kept ciphertexts a retry opened, and how many it gave up.
    public struct Retried: Sendable, Equatable {
        public var opened: Int
        public var givenUp: Int
    }

    /// After a completed resync, tries the contact's quarantined ciphertexts again, in the
    /// caller's transaction.
    ///
    /// One that opens is applied like a new arrival (``IncomingMessage``). One that still fails
    /// verification never will (neither the new keys nor the retired chain take it): it leaves the
    /// quarantine and its log row says to ask for it again. One authentic but beyond the window
    /// stays, as the window may still reach it.
    /// - Parameters:
    ///   - path: How an answer a kept handshake needs is sent (the daemon's settings).
    public static func retry(
        for contact: Contact, path: ReceivePath, in tx: StoreTransaction, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> Retried {
        var retried = Retried(opened: 0, givenUp: 0)
        for item in try tx.quarantined(for: contact) {
            guard let session = try tx.loadSession(for: contact) else { break }
            do {
                let result = try session.opening(item.ciphertext, now: now, using: &rng)
                _ = try IncomingMessage.apply(
                    result, ciphertext: item.ciphertext, from: contact, fingerprint: nil, path: path, in: tx, now: now,
                    using: &rng)
                try tx.removeQuarantined(item.id)
                retried.opened += 1
            } catch CipherError.duplicate {
                try tx.removeQuarantined(item.id)
            } catch CipherError.notAuthentic {
                try tx.removeQuarantined(item.id)
                if let messageID = item.messageID {
                    try tx.setLogStatus(
                        messageID, status: .rejected,
                        error:
                            "It did not open even after the resync: it was sealed with keys neither side has any more. Ask \(contact.name) to send it again."
                    )
                }
                retried.givenUp += 1
            } catch {
                continue
            }
        }
        return retried
    }
}
