import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// A real HTTP client (AsyncHTTPClient) for a daemon's API on loopback.
final class APIClient: Sendable {
    /// One answer: status, headers and the body.
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        /// The body as a JSON object.
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let base: String
    let token: String?
    let client: HTTPClient

    /// - Parameters:
    ///   - base: `http://127.0.0.1:PORT` (or https).
    ///   - token: Sent as `Authorization: Bearer` when set.
    ///   - trusting: A PEM certificate to trust (for a self-signed one), else the system's roots.
    ///   - followRedirects: Whether to follow a redirect (the console answers forms with 303s, which its tests read).
    init(base: String, token: String?, trusting certificate: String? = nil, followRedirects: Bool = true) throws {
        self.base = base
        self.token = token
        var configuration = HTTPClient.Configuration()
        if let certificate {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
            configuration.tlsConfiguration = tls
        }
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        if !followRedirects { configuration.redirectConfiguration = .disallow }
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    /// Sends one request and collects the answer (at most 1 MiB).
    func send(_ method: HTTPMethod, _ path: String, json: Any? = nil, body: Data? = nil, headers: [(String, String)] = [])
        async throws -> Answer
    {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        } else if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer.readableBytesView))
    }

    func get(_ path: String) async throws -> Answer { try await send(.GET, path) }

    /// Queues `text` to `contact`; the answer of `POST /v1/messages`.
    func post(text: String, to contact: String, key: String? = nil) async throws -> Answer {
        try await send(
            .POST, "/v1/messages", json: ["contact": contact, "text": text], headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }
}

extension Peer {
    /// Makes an API token with `scopes` (`smsgw api token create NAME --scope … --json`).
    func makeToken(_ name: String, scopes: String) throws -> String {
        let result = try expect(["api", "token", "create", name, "--scope", scopes, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["token"] as? String)
    }
}

/// Finds the API's address in a daemon's log lines (`HTTP API listening. smsgw.address=…`).
func apiAddress(inLog lines: [String]) -> String? {
    for line in lines where line.contains("HTTP API listening") {
        guard let range = line.range(of: "smsgw.address=") else { continue }
        return String(line[range.upperBound...].prefix { !$0.isWhitespace && $0 != "\"" })
    }
    return nil
}

/// Waits until the daemon log in `file` names its API's address and returns it.
func waitForAPI(log file: URL) async throws -> String {
    var found: String?
    try await GatewayRig.wait("the daemon's HTTP API to listen", timeout: 60) {
        let lines = (try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        found = apiAddress(inLog: lines)
        return found != nil
    }
    return try #require(found)
}

/// Runs a blocking call (a child process that takes seconds) on a dispatch queue, so it does not
/// hold one of the test process's few cooperative threads, which the in-process gateways of other
/// suites need meanwhile.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
