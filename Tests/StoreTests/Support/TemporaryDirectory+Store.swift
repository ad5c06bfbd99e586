import Foundation
import GRDB
import TestSupport

@testable import Store

extension TemporaryDirectory {
    var databasePath: String { url.appendingPathComponent(GatewayStore.databaseFileName).path }

    /// Opens the store in this directory with a quiet logger and `lockoutPolicy`.
    func open(lockoutPolicy: LockoutPolicy) throws -> GatewayStore {
        try GatewayStore.open(directory: url, logger: TestStore.logger, lockoutPolicy: lockoutPolicy)
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

extension GatewayStore {
    /// The SQLite store's GRDB pool, for tests that read the file's own tables and pragmas.
    var pool: DatabasePool {
        guard case .sqlite(let pool) = backend else { preconditionFailure("The store runs on PostgreSQL, not SQLite.") }
        return pool
    }
}
