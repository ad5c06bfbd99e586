import Failures
import Foundation
import Gateway
import TestSupport
import Testing

@Suite("The [http] table: listen address, TLS files, plain HTTP only on loopback")
struct HTTPSettingsTests {
    @Test func theDefaultIsLoopbackPort8640AndTheEnvironmentOverrides() throws {
        #expect(try GatewayConfiguration(toml: "").http.listen == HTTPSettings.Address(host: "127.0.0.1", port: 8640))
        let configured = try GatewayConfiguration(
            toml: "[http]\nlisten = \"[::1]:9000\"\nmax_queued = 500\n",
            environment: ["SMSGW_HTTP_LISTEN": "127.0.0.2:0", "SMSGW_HTTP_MAX_QUEUED": "7"])
        #expect(configured.http.listen == HTTPSettings.Address(host: "127.0.0.2", port: 0))
        #expect(configured.http.maxQueued == 7)
        #expect(try GatewayConfiguration(toml: "").http.authFailureLimit == 10)
        #expect(try GatewayConfiguration(toml: "[http]\nauth_failure_limit = 50\n").http.authFailureLimit == 50)
        #expect(try GatewayConfiguration(toml: "", environment: ["SMSGW_HTTP_AUTH_FAILURE_LIMIT": "1000"]).http.authFailureLimit == 1000)
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[http]\nauth_failure_limit = 0\n") }
        let defaults = try GatewayConfiguration(toml: "").http
        #expect(defaults.idleTimeoutSeconds == 60 && defaults.requestTimeoutSeconds == 30)
        let timeouts = try GatewayConfiguration(
            toml: "[http]\nidle_timeout_seconds = 5\nrequest_timeout_seconds = 2.5\n",
            environment: ["SMSGW_HTTP_IDLE_TIMEOUT_SECONDS": "7"]
        ).http
        #expect(timeouts.idleTimeoutSeconds == 7 && timeouts.requestTimeoutSeconds == 2.5)
        let zero = #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[http]\nrequest_timeout_seconds = 0\n") }
        #expect(zero?.key == "http.request_timeout_seconds")
        #expect(throws: ConfigurationError.self) {
            try GatewayConfiguration(toml: "", environment: ["SMSGW_HTTP_IDLE_TIMEOUT_SECONDS": "soon"])
        }
        #expect(try GatewayConfiguration(toml: "[http]\nlisten = \"[::1]:9000\"\n").http.listen?.description == "[::1]:9000")
        #expect(try GatewayConfiguration(toml: "[http]\nlisten = \"off\"\n").http.listen == nil)
    }

    @Test func plainHTTPOnAnAddressOthersCanReachIsRefusedWithTheReason() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try GatewayConfiguration(toml: "[http]\nlisten = \"0.0.0.0:8640\"\n")
        }
        #expect(error?.key == "http.listen")
        #expect(error?.message.contains("readable by anyone on the path") == true)
        #expect(error?.category == .configuration)
        let allowed = try GatewayConfiguration(toml: "[http]\nlisten = \"0.0.0.0:8640\"\nallow_plaintext = true\n")
        #expect(allowed.http.allowPlaintext)
        let tls = try GatewayConfiguration(
            toml: "[http]\nlisten = \"0.0.0.0:8640\"\ntls_certificate = \"/etc/smsgw/cert.pem\"\ntls_key = \"/etc/smsgw/key.pem\"\n")
        #expect(tls.http.servesTLS)
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[http]\ntls_key = \"/k.pem\"\n") }

        // A private key every user may read is refused; 0600 (as openssl writes it) is taken.
        try withTemporaryDirectory { root in
            let key = root.appendingPathComponent("key.pem")
            try writeSecret("-----BEGIN PRIVATE KEY-----\n", to: key)
            let toml = "[http]\ntls_certificate = \"/etc/smsgw/cert.pem\"\ntls_key = \"\(key.path)\"\n"
            #expect(try GatewayConfiguration(toml: toml).http.servesTLS)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
            let refused = #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: toml) }
            #expect(refused?.key == "http.tls_key" && refused?.message.contains("mode 0644") == true)
        }
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[http]\nlisten = \"nowhere\"\n") }
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "[http]\nport = 1\n") }
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: "", environment: ["SMSGW_HTTP_PORT": "1"]) }
    }
}
