import Foundation
import Logging
import Operations
import SMSCipher
import Store

/// A data directory of its own for one test (a copy of StoreTests' until the shared test-support
/// target holds one). It is removed when the object goes away and, with ``Fixture/withDirectory(_:)``,
/// when the test's body returns: keep the object alive while a store uses the directory, which
/// holds the store's lock files.
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

    /// Opens the store in this directory with a quiet logger.
    func open() throws -> GatewayStore {
        try GatewayStore.open(directory: url, logger: Fixture.logger)
    }

    /// Opens the store in this directory and creates an account in it, with the cheapest Argon2
    /// parameters.
    func unlockedStore() throws -> UnlockedStore {
        try open().createAccount(username: "tester", passphrase: Fixture.passphrase, parameters: Fixture.parameters)
    }
}

enum Fixture {
    static let passphrase = "correct horse battery staple"
    /// The cheapest parameters the store accepts, so each unlock takes a moment.
    static let parameters = Argon2Parameters.minimum

    static var logger: Logger {
        var logger = Logger(label: "smsgw.operations.tests")
        logger.logLevel = .critical
        return logger
    }

    /// Runs `body` with a fresh data directory, removed when it returns.
    static func withDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = TemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url.deletingLastPathComponent()) }
        return try body(directory)
    }

    /// Runs `body` with a fresh data directory holding an account, unlocked.
    static func withAccount<T>(_ body: (TemporaryDirectory, GatewayStore, UnlockedStore) throws -> T) throws -> T {
        try withDirectory { directory in
            let gateway = try directory.open()
            let store = try gateway.createAccount(username: "field-user", passphrase: passphrase, parameters: parameters)
            return try body(directory, gateway, store)
        }
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
