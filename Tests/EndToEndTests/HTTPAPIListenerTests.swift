import AsyncHTTPClient
import ExternalTool
import Foundation
import TestSupport
import Testing

/// The listener: TLS from PEM files with a self-signed certificate, plain HTTP refused on an
/// address others can reach, and the OpenAPI description checked against the running daemon.
@Suite("HTTP API: listener, TLS and the OpenAPI description", .serialized, .blockingOffPool)
struct HTTPAPIListenerTests {
    @Test("TLS from a self-signed certificate: HTTPS answers, plain HTTP does not")
    func tls() async throws {
        try await withTemporaryDirectory { root in
            let certificate = root.appendingPathComponent("cert.pem").path
            let key = root.appendingPathComponent("key.pem").path
            let openssl = try Self.run(
                "/usr/bin/env",
                [
                    "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                ])
            try #require(openssl == 0, "openssl could not make a certificate")
            let alice = try Peer.create("alice", in: root)
            let daemon = try ServeProcess(
                alice, ["--sim", "--sim-dir", root.appendingPathComponent("sim").path], in: root,
                environment: ["SMSGW_HTTP_TLS_CERTIFICATE": certificate, "SMSGW_HTTP_TLS_KEY": key])
            let base = try await waitForAPI(log: daemon.log)
            #expect(base.hasPrefix("https://127.0.0.1:"))
            let secure = try APIClient(base: base, token: try alice.makeToken("tls", scopes: "read"), trusting: certificate)
            #expect(try await secure.get("/v1/contacts").status == 200)
            let plain = try APIClient(base: base.replacingOccurrences(of: "https://", with: "http://"), token: nil)
            await #expect(throws: (any Error).self) { _ = try await plain.get("/health/live") }
            #expect(try await daemon.stop() == 0)
        }
    }

    @Test("Plain HTTP on an address other machines can reach is refused, saying why")
    func plaintextRefused() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let result = try alice.run(["serve", "--sim", "--check"], environment: ["SMSGW_HTTP_LISTEN": "0.0.0.0:8640"])
            #expect(result.status == 78, "\(result.stderr)")
            #expect(result.stderr.contains("readable by anyone on the path"), "\(result.stderr)")
        }
    }

    @Test("A second daemon whose API address is taken stops, saying so")
    func addressInUse() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await HTTPAPITests.Fixture.start(in: root)
            let address = fixture.base.replacingOccurrences(of: "http://", with: "")
            let bob = try Peer.create("carol", in: root)
            let result = try bob.run(
                ["serve", "--sim", "--sim-dir", root.appendingPathComponent("sim-carol").path],
                environment: ["SMSGW_HTTP_LISTEN": address])
            #expect(result.status == 69, "\(result.stderr)")
            #expect(result.stderr.contains("The HTTP API cannot listen on \(address)"), "\(result.stderr)")
        }
    }

    @Test("schemathesis: every response of the running daemon matches docs/openapi.yaml and none is a 5xx")
    func schemathesis() async throws {
        guard let tool = ExternalTool("schemathesis", override: "SCHEMATHESIS").path else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "CI installs schemathesis (scripts/install-deps.sh)")
            print("Skipping the schemathesis run: schemathesis is not installed (pip install schemathesis).")
            return
        }
        try await withTemporaryDirectory { root in
            // Its probes without a token and with a wrong one (each path's auth checks) exceed
            // the default 10 failed authentications a minute, after which they would get 429.
            let fixture = try await HTTPAPITests.Fixture.start(in: root, environment: ["SMSGW_HTTP_AUTH_FAILURE_LIMIT": "100000"])
            let token = try fixture.alice.makeToken("schemathesis", scopes: "admin")
            try await GatewayRig.wait("the modem to be ready", timeout: 60) {
                (try? fixture.alice.run(["status", "--json"]).stdout.contains("\"ready\"")) == true
            }
            // positive_data_acceptance is left out: it expects every schema-valid body to be
            // accepted, but whether a text is GSM-7 and fits 8 SMS is more than a JSON Schema
            // says, and such a text rightly gets 422 (the spec says so). Every other check runs.
            let base = fixture.base
            let status = try await offPool {
                try Self.run(
                    tool, in: root,
                    [
                        "run", base + "/v1/openapi.yaml", "--url", base, "--header", "Authorization: Bearer \(token)",
                        "--checks", "all", "--exclude-checks", "positive_data_acceptance", "--exclude-path", "/v1/events", "--max-examples",
                        "25",
                        "--request-timeout", "20",
                        "--suppress-health-check", "all",
                    ])
            }
            #expect(status == 0, "schemathesis found responses that do not match docs/openapi.yaml (its report is above)")
        }
    }

    /// Runs a program (in `directory`, for the files it leaves) with the output going to the
    /// test's; returns its exit status.
    static func run(_ path: String, in directory: URL? = nil, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.currentDirectoryURL = directory
        process.arguments = arguments
        try process.run()
        return process.waitForExit().status
    }
}
