import Foundation
import Logging
@testable import Store

/// A data directory of its own for one test, removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("smsgw-store-tests-\(UUID().uuidString)", isDirectory: true)
            .appendingPathComponent("data", isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    var databasePath: String { url.appendingPathComponent(GatewayStore.databaseFileName).path }

    /// Opens the store in this directory with a quiet logger.
    func open(lockoutPolicy: LockoutPolicy = .standard) throws -> GatewayStore {
        var logger = Logger(label: "smsgw.store.tests")
        logger.logLevel = .critical
        return try GatewayStore.open(directory: url, logger: logger, lockoutPolicy: lockoutPolicy)
    }

    /// The raw bytes of the database and its side files, for "no plaintext on disk" checks.
    func rawFiles() -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] {
            let path = databasePath + suffix
            if let data = FileManager.default.contents(atPath: path) { files[path] = data }
        }
        return files
    }

    /// The files (by path) whose bytes contain `needle`.
    func filesContaining(_ needle: Data) -> [String] {
        rawFiles().filter { $0.value.range(of: needle) != nil }.map(\.key).sorted()
    }
}

enum Fixture {
    static let passphrase = "correct horse battery staple"
    static let parameters = Argon2Parameters.minimum

    /// A fresh directory with an account created in it.
    static func unlockedStore() throws -> (TemporaryDirectory, GatewayStore, UnlockedStore) {
        let directory = TemporaryDirectory()
        let store = try directory.open()
        let unlocked = try store.createAccount(username: "field-user", passphrase: passphrase, parameters: parameters)
        return (directory, store, unlocked)
    }

    static func number(_ text: String) -> PhoneNumber {
        // Only called with valid literals in tests.
        try! PhoneNumber(text)
    }
}
