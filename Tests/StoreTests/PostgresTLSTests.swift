import Foundation
import TestSupport
import Testing

@testable import Store

/// The store's connection to PostgreSQL over TLS, against the test cluster's server, which has a
/// certificate for 127.0.0.1 signed by the cluster's own CA (``PostgresCluster/certificateAuthorityFile``).
@Suite("The store on PostgreSQL over TLS")
struct PostgresTLSTests {
    @Test("verify-full with the server's CA connects encrypted; require encrypts without checking; disable does not encrypt")
    func modes() throws {
        let cluster = try requirePostgres()
        let unrelated = TemporaryDirectory()
        try PostgresCluster.makeUnrelatedCertificateAuthority(in: unrelated.root.path)
        let cases: [(PostgresAddress.TLS, String?, Bool)] = [
            (.verifyFull, cluster.certificateAuthorityFile, true),
            (.require, nil, true),
            // require checks no certificate (libpq's sslmode of that name): a CA that signed
            // nothing of the server's does not stop it.
            (.require, unrelated.root.appendingPathComponent("ca.pem").path, true),
            (.disable, nil, false),
        ]
        for (tls, caFile, encrypted) in cases {
            var address = try cluster.freshLoopbackAddress()
            address.tls = tls
            address.tlsCAFile = caFile
            let directory = TemporaryDirectory()
            let store = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
            #expect(try Self.encrypted(store) == encrypted, "tls = \(tls.rawValue), tls_ca_file \(caFile ?? "none")")
            // The store works over it, not only the check.
            let unlocked = try store.createAccount(username: "node", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
            _ = try unlocked.addContact(name: "bob", number: nil, pairingCode: Data())
            #expect(try unlocked.contacts().map(\.name) == ["bob"])
        }
    }

    @Test(
        "verify-full with a CA that did not sign the server's certificate, or the system's roots, is refused in a sentence saying what to check"
    )
    func wrongAuthority() throws {
        let cluster = try requirePostgres()
        let unrelated = TemporaryDirectory()
        try PostgresCluster.makeUnrelatedCertificateAuthority(in: unrelated.root.path)
        for caFile in [unrelated.root.appendingPathComponent("ca.pem").path, nil] {
            var address = try cluster.freshLoopbackAddress()
            address.tls = .verifyFull
            address.tlsCAFile = caFile
            let directory = TemporaryDirectory()
            #expect("tls_ca_file \(caFile ?? "none")") {
                _ = try GatewayStore.open(postgres: address, directory: directory.url, logger: TestStore.logger)
            } throws: { error in
                let sentence = "\(error)"
                return sentence.contains("certificate") && sentence.contains("tls_ca_file") && !sentence.contains(cluster.password)
            }
        }
    }

    /// What the server says of the store's own connection: `pg_stat_ssl.ssl`.
    private static func encrypted(_ store: GatewayStore) throws -> Bool? {
        guard case .postgresql(let pool, _) = store.backend else { return nil }
        return try pool.readTransaction { db in
            try db.value(Bool.self, sql: "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        }
    }
}
