import Foundation
import Logging
import Operations
import SMSCipher
import Store

/// A data directory of its own for one test, removed when the test ends (a copy of StoreTests'
/// until the shared test-support target holds one).
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("smsgw-operations-tests-\(UUID().uuidString)", isDirectory: true)
            .appendingPathComponent("data", isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    /// Opens the store in this directory and creates an account in it, with a quiet logger and
    /// the cheapest Argon2 parameters.
    func unlockedStore() throws -> UnlockedStore {
        var logger = Logger(label: "smsgw.operations.tests")
        logger.logLevel = .critical
        let store = try GatewayStore.open(directory: url, logger: logger)
        return try store.createAccount(username: "tester", passphrase: "correct horse battery staple", parameters: .minimum)
    }
}

/// Two people, each with their own store, who know each other as contacts.
struct Couple {
    let aliceDirectory = TemporaryDirectory()
    let bobDirectory = TemporaryDirectory()
    /// Alice's store, where the contact is "bob".
    let alice: UnlockedStore
    /// Bob's store, where the contact is "alice".
    let bob: UnlockedStore

    /// Both stores with each other as contacts, paired as `contact add` and `contact pair` do
    /// on both sides; numbers only where given (nil: a copy-and-paste peer).
    init(aliceNumber: String? = "+15550001", bobNumber: String? = "+15550002", paired: Bool = true) throws {
        alice = try aliceDirectory.unlockedStore()
        bob = try bobDirectory.unlockedStore()
        var rng = SystemRandomNumberGenerator()
        let bobOnAlice = try Contacts.add(name: "bob", numbers: try bobNumber.map { [try PhoneNumber($0)] } ?? [], store: alice, using: &rng)
        let aliceOnBob = try Contacts.add(name: "alice", numbers: try aliceNumber.map { [try PhoneNumber($0)] } ?? [], store: bob, using: &rng)
        guard paired else { return }
        _ = try Contacts.pair("bob", code: try PairingCode(parsing: aliceOnBob.pairingCode), store: alice, now: Date())
        _ = try Contacts.pair("alice", code: try PairingCode(parsing: bobOnAlice.pairingCode), store: bob, now: Date())
    }
}
