import Foundation
import Operations
import SMSCipher
import Store
import TestSupport

/// Two people, each with their own store, who know each other as contacts.
struct Couple {
    let aliceLocation: TestStoreLocation
    let bobLocation: TestStoreLocation
    var aliceDirectory: TemporaryDirectory { aliceLocation.directory }
    var bobDirectory: TemporaryDirectory { bobLocation.directory }
    /// Alice's store, where the contact is "bob".
    let alice: UnlockedStore
    /// Bob's store, where the contact is "alice".
    let bob: UnlockedStore

    /// Both stores with each other as contacts, paired as `contact add` and `contact pair` do
    /// on both sides; numbers only where given (nil: a copy-and-paste peer); each store on
    /// `backend` (on PostgreSQL, a database each).
    init(
        aliceNumber: String? = "+15550001", bobNumber: String? = "+15550002", paired: Bool = true,
        on backend: StoreBackendKind = .sqlite
    ) throws {
        aliceLocation = try location(backend)
        bobLocation = try location(backend)
        alice = try aliceLocation.unlockedStore().1
        bob = try bobLocation.unlockedStore().1
        var rng = SystemRandomNumberGenerator()
        let bobOnAlice = try Contacts.add(
            name: "bob", numbers: try bobNumber.map { [try PhoneNumber($0)] } ?? [], store: alice, using: &rng)
        let aliceOnBob = try Contacts.add(
            name: "alice", numbers: try aliceNumber.map { [try PhoneNumber($0)] } ?? [], store: bob, using: &rng)
        guard paired else { return }
        _ = try Contacts.pair("bob", code: try PairingCode(parsing: aliceOnBob.pairingCode), store: alice, now: Date())
        _ = try Contacts.pair("alice", code: try PairingCode(parsing: bobOnAlice.pairingCode), store: bob, now: Date())
    }
}
