public import Foundation
public import SMSCipher
public import Store

/// What a search of the contacts' keys for a ciphertext found (``Store/StoreReader/contact(whoseKeysOpen:excluding:limit:now:using:)``).
public struct KeySearch: Sendable {
    /// The contact whose keys open the ciphertext; nil when none of those tried does, or when it
    /// is no ciphertext at all.
    public var contact: Contact?
    /// Whether ``contact`` received the message before (a duplicate there).
    public var alreadyReceived = false
    /// How many contacts with keys were not tried: the least recently active beyond the limit.
    public var untried = 0

    /// The most contacts whose keys the daemon tries on one SMS from a number no contact has.
    ///
    /// Each try reads and decrypts the contact's key state and computes the window's keys (about
    /// 60 µs in a release build, docs/PERFORMANCE.md); without a bound, anyone could make each
    /// SMS they send cost that many times the number of contacts, inside a store transaction.
    public static let daemonLimit = 200
}

extension StoreReader {
    /// The contact with keys, other than `excluded`, whose keys accept `ciphertext` as a receiver
    /// would: a window position, a skipped key, the retired chain or the handshake key (§5.3);
    /// whether that contact received it before (a duplicate there); and how many contacts were
    /// not tried. The sessions are only tried: nothing is saved.
    ///
    /// A copy-and-paste decryption that names the wrong contact says whose the message is with
    /// it, and the daemon applies a message from a number no contact has to the contact whose
    /// keys open it (a peer with a new SIM): the MAC, not the sender's number, says who wrote it.
    ///
    /// - Parameter limit: The most contacts tried, the most recently active first
    ///   (``Store/StoreReader/contactsWithKeys(mostRecentlyActiveFirst:excluding:)``). The look
    ///   past the window that tells a far-ahead message from a forgery (§5.3, rule 6) is left out:
    ///   it costs some 30 times the rest of a try and accepts nothing.
    public func contact(
        whoseKeysOpen ciphertext: String, excluding excluded: Contact? = nil, limit: Int = .max, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws -> KeySearch {
        // Read once, not once per contact; what is no ciphertext no contact's keys will read.
        guard let received = try? ReceivedCiphertext(ciphertext) else { return KeySearch() }
        let (contacts, others) = try contactsWithKeys(mostRecentlyActiveFirst: limit, excluding: excluded)
        for contact in contacts {
            guard let session = try? loadSession(for: contact) else { continue }
            do throws(CipherError) {
                _ = try session.opening(received, now: now, lookingAhead: false, using: &rng)
                return KeySearch(contact: contact)
            } catch .notAuthentic {
                continue
            } catch {
                // Its keys verified it (a duplicate, a handshake out of turn): it is that
                // contact's, whatever became of it.
                return KeySearch(contact: contact, alreadyReceived: error == .duplicate)
            }
        }
        return KeySearch(untried: others)
    }
}
