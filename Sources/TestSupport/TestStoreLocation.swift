public import Foundation
public import Store

/// The backend a test's store runs on.
public enum StoreBackendKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A SQLite file in the test's data directory.
    case sqlite
    /// A fresh database of the shared test cluster (``PostgresCluster/shared``).
    case postgresql

    public var description: String { rawValue }
}

/// Where one test's store lives: a data directory of its own and, on PostgreSQL, a database of
/// its own, the same at every opening (a second store on it stands for a second process).
///
/// Keep the location as long as a store opened from it, as with ``TemporaryDirectory``.
public final class TestStoreLocation: Sendable {
    public let backend: StoreBackendKind
    public let directory: TemporaryDirectory
    /// The database on PostgreSQL; nil on SQLite.
    public let address: PostgresAddress?

    /// A fresh location on `backend`.
    ///
    /// - Throws: ``PostgresUnavailable`` when PostgreSQL is asked for and no server could be
    ///   started (a test skips or fails on that before calling this).
    public init(_ backend: StoreBackendKind) throws {
        self.backend = backend
        directory = TemporaryDirectory(prefix: "smsgw-store")
        switch backend {
        case .sqlite: address = nil
        case .postgresql: address = try PostgresCluster.shared.get().freshAddress()
        }
    }

    /// Opens the store here with a quiet logger.
    public func open() throws -> GatewayStore {
        if let address {
            return try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
        }
        return try GatewayStore.open(directory: directory.url, logger: TestStore.logger)
    }

    /// Opens the store here and creates the account "field-user" in it, unlocked.
    public func unlockedStore() throws -> (GatewayStore, UnlockedStore) {
        let store = try open()
        let unlocked = try store.createAccount(
            username: "field-user", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        return (store, unlocked)
    }
}
