import Foundation
import Store
import TestSupport
import Testing

/// A gateway whose `[store]` in its TOML asks for TLS to the PostgreSQL server, checked with the
/// binary as an operator would (`smsgw init`, then `serve --check --config`).
@Suite("A gateway on PostgreSQL over TLS", .serialized)
struct PostgresTLSGatewayTests {
    @Test(
        "serve --check with tls = verify-full and the server's CA in the TOML reports the store reachable; another CA is a problem that names tls_ca_file"
    )
    func checkOverTLS() throws {
        let cluster = try requirePostgres()
        try withTemporaryDirectory { root in
            let database = try cluster.freshLoopbackAddress()
            let config = try Self.configuration(
                in: root, database: database, password: cluster.password, caFile: cluster.certificateAuthorityFile)
            let alice = try Peer.create("alice", in: root, storeEnvironment: ["SMSGW_CONFIG": config.path])

            let check = try alice.run(["serve", "--check", "--config", config.path])
            #expect(check.status == 0, "serve --check exited \(check.status): \(check.stdout) \(check.stderr)")
            #expect(
                check.stdout.contains("ok      store: postgresql, postgresql://smsgw@127.0.0.1:\(database.port)/\(database.database)"),
                "\(check.stdout)")
            #expect(check.lines.contains("ok      passphrase: unlocks the account alice"), "\(check.stdout)")

            // The same with a CA that signed nothing of the server's: refused before any statement.
            let unrelated = root.appendingPathComponent("unrelated-ca")
            try FileManager.default.createDirectory(at: unrelated, withIntermediateDirectories: true)
            try PostgresCluster.makeUnrelatedCertificateAuthority(in: unrelated.path)
            let wrong = try Self.configuration(
                in: root, database: database, password: cluster.password, caFile: unrelated.appendingPathComponent("ca.pem").path)
            let refused = try alice.run(["serve", "--check", "--config", wrong.path], environment: ["SMSGW_CONFIG": wrong.path])
            #expect(refused.status == 78, "\(refused.stdout)")
            #expect(
                refused.lines.contains { $0.hasPrefix("PROBLEM store") && $0.contains("certificate") && $0.contains("tls_ca_file") },
                "\(refused.stdout)")
            #expect(!(check.stdout + check.stderr + refused.stdout + refused.stderr).contains(cluster.password))
        }
    }

    /// A configuration with `[store]` on `database` over TLS checked against `caFile`, the
    /// password in a 0600 file, and one modem (/dev/null: the check never talks to it).
    private static func configuration(in root: URL, database: PostgresAddress, password: String, caFile: String) throws -> URL {
        let passwordFile = root.appendingPathComponent("database-password")
        try writeSecret(password + "\n", to: passwordFile)
        let toml = """
            log_level = "info"
            [store]
            backend = "postgresql"
            url = "postgresql://\(database.user)@127.0.0.1:\(database.port)/\(database.database)"
            password_file = "\(passwordFile.path)"
            tls = "verify-full"
            tls_ca_file = "\(caFile)"
            [[modem]]
            name = "m1"
            device = "/dev/null"
            """
        let url = root.appendingPathComponent("smsgw-\(UUID().uuidString.prefix(6)).toml")
        try Data(toml.utf8).write(to: url)
        return url
    }
}
