import Foundation
import SMSCipher
import Store

/// Reading and writing a contact's ratchet state and pairing code inside a store transaction.
///
/// The store keeps both as opaque encrypted blobs; the session is ``Session/storedForm()`` (read
/// with ``Session/init(stored:)``, which also reads the JSON of earlier versions), the pairing code
/// its grouped text.
extension StoreReader {
    /// The contact's session, or nil before the first pairing.
    func decodedSession(for contact: Contact) throws -> Session? {
        guard let blob = try session(for: contact) else { return nil }
        do {
            return try Session(stored: blob)
        } catch CipherError.corruptedState {
            throw StoreError.corrupted(
                "The key state of \"\(contact.name)\" cannot be read; pair again with `smsgw resync \(contact.name) --manual`.")
        }
    }

    /// The contact's session; throws a sentence saying to pair first when there is none.
    func requireSession(for contact: Contact) throws -> Session {
        guard let session = try decodedSession(for: contact) else {
            throw CLIError(
                "\"\(contact.name)\" is not paired yet; enter their code with `smsgw contact pair \(contact.name) CODE`.",
                status: .dataError)
        }
        return session
    }

    /// This side's pending pairing code, or nil when none is pending.
    func decodedPairingCode(for contact: Contact) throws -> PairingCode? {
        guard let data = try pairingCode(for: contact) else { return nil }
        return try PairingCode(parsing: String(decoding: data, as: UTF8.self))
    }
}

extension StoreTransaction {
    /// Saves the contact's new session.
    func save(_ session: Session, for contact: Contact) throws {
        try setSession(Self.encode(session), for: contact)
    }

    static func encode(_ session: Session) -> Data {
        Data(session.storedForm())
    }
}

extension PairingCode {
    /// The form the store keeps: the grouped text, UTF-8.
    var storedData: Data { Data(grouped.utf8) }
}
