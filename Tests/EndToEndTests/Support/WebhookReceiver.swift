import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// examples/webhook-receiver.py run as an integrator would: a real HTTP server on loopback that
/// verifies each request's signature and writes one JSON line per request.
final class WebhookReceiver {
    /// One request as the receiver saw it.
    struct Request: Decodable {
        struct Event: Decodable {
            struct Data: Decodable {
                struct Message: Decodable {
                    var id: Int64
                    var contact: String?
                    var direction: String
                    var text: String?
                }
                var message: Message?
            }
            var id: Int64
            var type: String
            var timestamp: String
            var data: Data
        }
        var status: Int
        var webhookId: String
        var verified: Bool
        var duplicate: Bool
        var event: Event?
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/webhook-receiver.py")

    let process: Process
    let output: URL
    let port: Int

    /// Starts the receiver with `secret` and `options` (`--fail-every 3`, `--gone`) and waits for its port.
    init(secret: String, options: [String] = [], in root: URL) async throws {
        let name = "receiver-\(UUID().uuidString.prefix(6))"
        output = root.appendingPathComponent("\(name).jsonl")
        let portFile = root.appendingPathComponent("\(name).port")
        let process = try PythonChild.start(
            [Self.script.path, "--port", "0", "--port-file", portFile.path, "--output", output.path, "--secret", secret] + options)
        self.process = process
        do {
            try await GatewayRig.wait("the webhook receiver to listen", timeout: 20) {
                FileManager.default.fileExists(atPath: portFile.path)
            }
            port = try #require(Int(try String(contentsOf: portFile, encoding: .utf8)))
        } catch {
            // Not initialised, so no deinit stops it.
            Self.stop(process)
            throw error
        }
    }

    deinit { Self.stop(process) }

    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = process.waitForExit()
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Every request so far, in arrival order.
    func requests() throws -> [Request] {
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// The events answered 200, each once (the first time its webhook-id came).
    func accepted() throws -> [Request.Event] {
        try requests().filter { $0.status == 200 && !$0.duplicate }.compactMap(\.event)
    }
}
