import Failures
import Foundation
import Gateway
import TestSupport
import Testing

@testable import Store

@Suite("The [store] table: SQLite or PostgreSQL, the password never in the file, durability checked")
struct StoreSettingsTests {
    @Test func sqliteIsTheDefaultAndPostgreSQLIsReadFromTheFileAndTheEnvironment() throws {
        #expect(try GatewayConfiguration(toml: "").store == StoreSettings())
        let toml = """
            [store]
            backend = "postgresql"
            url = "postgresql://smsgw@db.example:5433/gateway"
            password_file = "/etc/smsgw/database-password"
            tls = "verify-full"
            tls_ca_file = "/etc/smsgw/db-ca.pem"
            """
        let file = try GatewayConfiguration(toml: toml).store
        #expect(file.backend == .postgresql && file.url == "postgresql://smsgw@db.example:5433/gateway")
        #expect(file.passwordFile == "/etc/smsgw/database-password" && file.tls == .verifyFull && file.tlsCAFile == "/etc/smsgw/db-ca.pem")
        #expect(!file.allowAsynchronousReplicas)
        let overridden = try GatewayConfiguration(
            toml: toml,
            environment: [
                "SMSGW_STORE_URL": "postgresql://smsgw@/gateway?host=/run/postgresql", "SMSGW_STORE_TLS": "disable",
                "SMSGW_STORE_ALLOW_ASYNCHRONOUS_REPLICAS": "true",
            ]
        ).store
        #expect(overridden.url == "postgresql://smsgw@/gateway?host=/run/postgresql" && overridden.tls == .disable)
        #expect(overridden.allowAsynchronousReplicas)
        let fromEnvironment = try StoreSettings.load(
            configurationFile: nil, environment: ["SMSGW_STORE_BACKEND": "postgresql", "SMSGW_STORE_URL": "postgresql://u@h/d"])
        #expect(fromEnvironment.backend == .postgresql && fromEnvironment.url == "postgresql://u@h/d")
    }

    @Test func aPasswordInTheFileOrTheURLAndBadValuesAreRefusedNamingTheKey() throws {
        let password = #expect(throws: ConfigurationError.self) {
            try GatewayConfiguration(toml: "[store]\nbackend = \"postgresql\"\nurl = \"postgresql://u@h/d\"\npassword = \"hunter2\"\n")
        }
        #expect(password?.key == "store.password" && password?.message.contains("password_file") == true)
        #expect(password?.message.contains("hunter2") == false)
        let inURL = #expect(throws: ConfigurationError.self) {
            try StoreSettings.load(
                configurationFile: nil, environment: ["SMSGW_STORE_BACKEND": "postgresql", "SMSGW_STORE_URL": "postgresql://u:hunter2@h/d"]
            ).address(environment: [:])
        }
        #expect(inURL?.key == "store.url" && inURL?.message.contains("hunter2") == false)
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[store]\nbackend = \"postgresql\"\n") }
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[store]\nbackend = \"mysql\"\n") }
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[store]\ntls = \"prefer\"\n") }
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "", environment: ["SMSGW_STORE_PASSWORDS": "x"]) }
    }

    @Test func thePasswordComesFromItsFileOnlyWhenOthersCannotReadItOrFromTheEnvironment() throws {
        try withTemporaryDirectory { root in
            let file = root.appendingPathComponent("database-password")
            try writeSecret("s3cret\n", to: file)
            var settings = StoreSettings()
            settings.backend = .postgresql
            settings.url = "postgresql://smsgw@db.example/gateway"
            #expect(try settings.address(environment: [StoreSettings.passwordVariable: "from-env"]).password == "from-env")
            settings.passwordFile = file.path
            #expect(try settings.address(environment: [:]).password == "s3cret")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let open = #expect(throws: ConfigurationError.self) { try settings.address(environment: [:]) }
            #expect(open?.key == "store.password_file" && open?.message.contains("s3cret") == false)
        }
    }

    @Test func aServerWhoseCommitsMayVanishIsRefusedAtStartUpAndADurableOneIsNot() throws {
        let cluster = try requirePostgres()
        try withTemporaryDirectory { root in
            let address = try cluster.freshAddress()
            var settings = StoreSettings()
            settings.backend = .postgresql
            settings.url = "postgresql://\(address.user)@/\(address.database)?host=\(address.host)&port=\(address.port)"
            let store = try settings.open(dataDirectory: root, logger: TestStore.logger, environment: [:])
            #expect(try settings.checkDurability(of: store, logger: TestStore.logger) == .durable)
            #expect(try StoreSettings().checkDurability(of: try TemporaryDirectory().open(), logger: TestStore.logger) == nil)
            try store.writeTransaction { db in
                try db.execute(sql: "ALTER DATABASE \(address.database) SET synchronous_commit = off")
            }
            try store.close()
            let reopened = try settings.open(dataDirectory: root, logger: TestStore.logger, environment: [:])
            let refused = #expect(throws: ConfigurationError.self) { try settings.checkDurability(of: reopened, logger: TestStore.logger) }
            #expect(refused?.message.contains("synchronous_commit is off") == true)
        }
    }
}
