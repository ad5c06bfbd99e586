import Foundation
public import SMSCipher
public import Store

/// A contact's ratchet state as the store keeps it: ``Session/storedForm()`` (the same encoding as
/// the CLI's `encrypt`/`decrypt`), sealed by the store.
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
                "The key state of \"\(contact.name)\" was written by a newer smsgw (state version \(version)); upgrade smsgw to read it. Do not pair again: that would throw the keys away.")
        } catch {
            throw StoreError.corrupted(
                "The key state of \"\(contact.name)\" cannot be read; pair again with `smsgw resync \(contact.name) --manual`.")
        }
    }

    /// The contact's session; a ``GatewayError`` (65) saying to pair first when there is none.
    public func requirePairedSession(for contact: Contact) throws -> Session {
        guard let session = try loadSession(for: contact) else {
            throw GatewayError(
                .dataError,
                "\"\(contact.name)\" is not paired yet; enter their code with `smsgw contact pair \(contact.name) CODE`.")
        }
        return session
    }
}

extension StoreTransaction {
    /// Saves the contact's new session (in the caller's transaction).
    public func saveSession(_ session: Session, for contact: Contact) throws {
        try setSession(Data(session.storedForm()), for: contact)
    }
}
