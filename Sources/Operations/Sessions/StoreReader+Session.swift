import Foundation
public import SMSCipher
public import Store

/// The one codec of a contact's secrets as the store keeps them, for every front end and the
/// daemon: the ratchet state as ``SMSCipher/Session/storedForm()`` (read with
/// ``SMSCipher/Session/init(stored:)``, which also reads the JSON of earlier versions), this side's
/// pairing code as its grouped text. The store seals both and knows nothing of their form.
extension StoreReader {
    /// The contact's session, or nil before pairing.
    ///
    /// - Throws: ``StoreError/corrupted(_:)`` when the stored state cannot be decoded, saying to
    ///   upgrade smsgw when a newer version wrote it (pairing again would throw its keys away).
    public func loadSession(for contact: Contact) throws -> Session? {
        guard let blob = try session(for: contact) else { return nil }
        do {
            return try Session(stored: blob)
        } catch CipherError.unsupportedStateVersion(let version) {
            throw StoreError.corrupted(
                "The key state of \"\(contact.name)\" was written by a newer smsgw (state version \(version)); upgrade smsgw to read it. Do not pair again: that would throw the keys away."
            )
        } catch {
            throw StoreError.corrupted(
                "The key state of \"\(contact.name)\" cannot be read; pair with \(contact.name) again with new codes exchanged in person.")
        }
    }

    /// The contact's session.
    ///
    /// - Throws: ``ContactError/notPaired(contact:)`` when there is none yet.
    public func requirePairedSession(for contact: Contact) throws -> Session {
        guard let session = try loadSession(for: contact) else { throw ContactError.notPaired(contact: contact.name) }
        return session
    }

    /// This side's pending pairing code, or nil once paired (and no re-pairing is pending).
    public func loadPairingCode(for contact: Contact) throws -> PairingCode? {
        guard let data = try pairingCode(for: contact) else { return nil }
        do {
            return try PairingCode(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw StoreError.corrupted(
                "The pairing code stored for \"\(contact.name)\" cannot be read; start the pairing with \(contact.name) again.")
        }
    }
}

extension StoreTransaction {
    /// Saves the contact's new session (in the caller's transaction).
    public func saveSession(_ session: Session, for contact: Contact) throws {
        try setSession(Data(session.storedForm()), for: contact)
    }

    /// Marks the contact paired with `session` and forgets this side's pairing code.
    func savePaired(_ session: Session, for contact: Contact) throws {
        try setPaired(contact, session: Data(session.storedForm()))
    }
}

extension PairingCode {
    /// The form the store keeps: the grouped text, UTF-8.
    var storedData: Data { Data(grouped.utf8) }
}
