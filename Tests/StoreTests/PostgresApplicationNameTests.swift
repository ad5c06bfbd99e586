import Foundation
import TestSupport
import Testing

@testable import Store

/// The store's PostgreSQL sessions name their process, so an operator reading
/// `pg_stat_activity` can tell which node holds one (docs/OPERATIONS.md, "Several nodes").
@Suite("The store's PostgreSQL sessions name their process")
struct PostgresApplicationNameTests {
    @Test("Over TCP and over a unix socket, application_name is 'smsgw on HOST (pid N)'")
    func sessionsNameTheirProcess() throws {
        let cluster = try requirePostgres()
        #expect(PostgresAddress.applicationName.hasPrefix("smsgw on "))
        #expect(PostgresAddress.applicationName.hasSuffix("(pid \(getpid()))"))
        for address in [try cluster.freshLoopbackAddress(), try cluster.freshAddress()] {
            let directory = TemporaryDirectory(prefix: "smsgw-store")
            let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
            defer { try? store.close() }
            let name = try store.readTransaction { db in
                try db.value(String.self, sql: "SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()")
            }
            #expect(name == PostgresAddress.applicationName, "\(address)")
        }
    }
}
