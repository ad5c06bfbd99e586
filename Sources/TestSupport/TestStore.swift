public import Foundation
public import Logging
public import Store

/// Stores for tests: real SQLite files in temporary directories, with the cheapest Argon2id
/// parameters so that each unlock takes a moment.
public enum TestStore {
    public static let passphrase = "correct horse battery staple"
    /// The cheapest parameters the store accepts.
    public static let parameters = Argon2Parameters.minimum

    /// A quiet logger for a store.
    public static var logger: Logger { quietLogger("smsgw.store.tests") }

    /// A fresh directory with an account created in it. Keep the directory as long as the store.
    public static func unlockedStore() throws -> (TemporaryDirectory, GatewayStore, UnlockedStore) {
        let directory = TemporaryDirectory(prefix: "smsgw-store")
        let store = try directory.open()
        let unlocked = try store.createAccount(username: "field-user", passphrase: passphrase, parameters: parameters)
        return (directory, store, unlocked)
    }

    /// The store in `directory` (made if missing), with an account "tester", unlocked.
    public static func unlockedStore(in directory: URL) throws -> UnlockedStore {
        let store = try GatewayStore.open(directory: directory, logger: logger)
        return try store.createAccount(username: "tester", passphrase: passphrase, parameters: parameters)
    }

    /// Runs `body` with a fresh data directory, removed when it returns.
    public static func withDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = TemporaryDirectory(prefix: "smsgw-store")
        return try withExtendedLifetime(directory) { try body(directory) }
    }

    /// Runs `body` with a fresh data directory holding an account, unlocked.
    public static func withAccount<T>(_ body: (TemporaryDirectory, GatewayStore, UnlockedStore) throws -> T) throws -> T {
        try withDirectory { directory in
            let gateway = try directory.open()
            let store = try gateway.createAccount(username: "field-user", passphrase: passphrase, parameters: parameters)
            return try body(directory, gateway, store)
        }
    }

    /// A phone number from a literal a test knows is valid.
    public static func number(_ text: String) -> PhoneNumber {
        // Only called with valid literals in tests.
        try! PhoneNumber(text)
    }
}

extension TemporaryDirectory {
    /// Opens the store in ``url`` with a quiet logger.
    public func open() throws -> GatewayStore {
        try GatewayStore.open(directory: url, logger: TestStore.logger)
    }

    /// Opens the store in ``url`` and creates an account "tester" in it.
    public func unlockedStore() throws -> UnlockedStore {
        try open().createAccount(username: "tester", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
    }
}
