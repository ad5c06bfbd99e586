import Foundation
import TestSupport
import Testing

/// The shared test cluster, or this test is skipped with the reason printed, or, where a
/// server is required (`SMSGW_REQUIRE_POSTGRES=1`, as in CI), it fails with the reason.
func requirePostgres() throws -> PostgresCluster {
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
