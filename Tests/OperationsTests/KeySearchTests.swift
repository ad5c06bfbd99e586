import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// The search of the contacts' keys for a ciphertext from a number no contact has: the most
/// recently active contacts first, at most as many as the limit, the rest counted.
struct KeySearchTests {
    /// Paired contacts in one store, and each peer's side to seal what the peer sends.
    final class Peers {
        let location: TestStoreLocation
        let store: UnlockedStore
        private var sides: [String: Session] = [:]
        private var rng = SystemRandomNumberGenerator()

        init(_ names: [String], on backend: StoreBackendKind) throws {
            location = try TestStoreLocation(backend)
            store = try location.unlockedStore().1
            var rng = SystemRandomNumberGenerator()
            try store.write { tx in
                for name in names {
                    let (mine, peer) = (PairingCode.generate(using: &rng), PairingCode.generate(using: &rng))
                    let contact = try tx.addContact(name: name, number: nil, pairingCode: Data(mine.grouped.utf8))
                    try tx.setPaired(contact, session: Data(try Session.paired(mine: mine, peer: peer).storedForm()))
                    sides[name] = try Session.paired(mine: peer, peer: mine)
                }
            }
        }

        /// The next SMS `name`'s side sends.
        func sealed(by name: String) throws -> String {
            let sealed = try sides[name]!.sealing("from \(name)", using: &rng)
            sides[name] = sealed.session
            return sealed.ciphertext
        }

        func search(_ ciphertext: String, limit: Int = .max, excluding excluded: String? = nil) throws -> (String?, untried: Int) {
            try store.read { reader in
                let excluded = try excluded.map { try reader.contact(named: $0) }
                let found = try reader.contact(whoseKeysOpen: ciphertext, excluding: excluded, limit: limit, now: Date(), using: &rng)
                return (found.contact?.name, found.untried)
            }
        }
    }

    @Test("A contact within the limit is found; one beyond it is not tried, and counted", arguments: StoreBackendKind.allCases)
    func theLimitTriesTheMostRecentlyActiveContacts(_ backend: StoreBackendKind) throws {
        let peers = try Peers(["ann", "ben", "cy", "dee"], on: backend)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try peers.store.write { tx in
            // Activity is the later of the last SMS received and sent: dee, then ben, then cy; ann never.
            try tx.recordReceived(from: tx.contact(named: "ben"), at: start + 20)
            try tx.recordSent(to: tx.contact(named: "cy"), at: start + 10)
            try tx.recordReceived(from: tx.contact(named: "dee"), at: start)
            try tx.recordSent(to: tx.contact(named: "dee"), at: start + 30)
        }
        #expect(
            try peers.store.read { try $0.contactsWithKeys(mostRecentlyActiveFirst: 10).contacts.map(\.name) } == [
                "dee", "ben", "cy", "ann",
            ])
        #expect(try peers.search(peers.sealed(by: "cy"), limit: 3) == ("cy", 0))
        #expect(try peers.search(peers.sealed(by: "cy"), limit: 2) == (nil, 2))
        #expect(try peers.search(peers.sealed(by: "ann"), limit: 3) == (nil, 1))
        #expect(try peers.search(peers.sealed(by: "ann")) == ("ann", 0))
        // The contact left out does not count among those not tried.
        #expect(try peers.search(peers.sealed(by: "ann"), limit: 2, excluding: "dee") == (nil, 1))
        #expect(try peers.search(peers.sealed(by: "ann"), limit: 3, excluding: "dee") == ("ann", 0))
        #expect(try peers.search("no ciphertext at all") == (nil, 0))
    }

    @Test("The search finds what a contact's keys would accept, not a message far past the window")
    func aMessageBeyondTheWindowIsNotAttributed() throws {
        let peers = try Peers(["ann", "ben"], on: .sqlite)
        var last = ""
        for _ in 0..<ProtocolConstants.window { last = try peers.sealed(by: "ben") }
        #expect(try peers.search(last) == ("ben", 0))
        let beyond = try peers.sealed(by: "ben")
        #expect(try peers.search(beyond) == (nil, 0))
        // Ben's own number still tells it apart from a forgery.
        let ben = try peers.store.read { reader in try reader.loadSession(for: reader.contact(named: "ben")) }
        var rng = SystemRandomNumberGenerator()
        #expect(throws: CipherError.beyondWindow(ahead: ProtocolConstants.window)) {
            try ben?.opening(beyond, now: Date(), using: &rng)
        }
    }
}
