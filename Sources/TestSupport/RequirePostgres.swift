import Foundation
public import Store
public import Testing

/// The shared test cluster, or this test is skipped with the reason printed, or, where a
/// server is required (`SMSGW_REQUIRE_POSTGRES=1`, as in CI), it fails with the reason.
public func requirePostgres() throws -> PostgresCluster {
    switch PostgresCluster.shared {
    case .success(let cluster):
        return cluster
    case .failure(let reason):
        if PostgresCluster.required {
            Issue.record("No PostgreSQL server could be started, and SMSGW_REQUIRE_POSTGRES=1 requires one: \(reason)")
            throw reason
        }
        print("PostgreSQL tests skipped: \(reason)")
        try Test.cancel("PostgreSQL tests skipped: \(reason)")
    }
}

/// A fresh location on `backend`; on PostgreSQL the test is skipped (or, where a server is
/// required, fails) when no server could be started.
public func location(_ backend: StoreBackendKind) throws -> TestStoreLocation {
    if backend == .postgresql { _ = try requirePostgres() }
    return try TestStoreLocation(backend)
}

extension TestStore {
    /// Runs `body` with a fresh location on `backend` holding an account, unlocked (skipping on
    /// PostgreSQL as ``location(_:)`` does).
    public static func withAccount<T>(
        on backend: StoreBackendKind, _ body: (TestStoreLocation, GatewayStore, UnlockedStore) throws -> T
    ) throws -> T {
        let location = try location(backend)
        let (gateway, store) = try location.unlockedStore()
        return try withExtendedLifetime(location) { try body(location, gateway, store) }
    }
}
