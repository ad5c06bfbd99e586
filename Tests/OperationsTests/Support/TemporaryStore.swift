import Foundation
import Logging
import Store

/// A data directory of its own for one test, removed by ``Fixture/withDirectory(_:)`` when the
/// test's body returns (not on deinit: the store keeps lock files there while it is in use).
///
/// After StoreTests' helper of the same name, trimmed to what these tests use.
struct TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("smsgw-operations-tests-\(UUID().uuidString)", isDirectory: true)
            .appendingPathComponent("data", isDirectory: true)
    }

    /// Opens the store in this directory with a quiet logger.
    func open() throws -> GatewayStore {
        try GatewayStore.open(directory: url, logger: Fixture.logger)
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
