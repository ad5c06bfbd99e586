import Foundation
import Logging
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// A webhook to a port where nothing listens fails at once with "refused" and waits for its own
/// retry schedule; it holds neither the dispatcher nor another endpoint's deliveries.
@Suite(.timeLimit(.minutes(5)))
struct WebhookRefusedTests {
    /// A loopback HTTP server answering 204 to every POST, in a python3 child; its port.
    final class Receiver {
        static let script = """
            import http.server, os, sys
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    self.rfile.read(int(self.headers.get("Content-Length", "0")))
                    self.send_response(204)
                    self.end_headers()
                def log_message(self, *arguments):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            with open(sys.argv[1] + ".partial", "w") as port:
                port.write(str(server.server_port))
            os.rename(sys.argv[1] + ".partial", sys.argv[1])
            server.serve_forever()
            """
        let process: Process
        var port = 0

        init(in root: URL) async throws {
            let portFile = root.appendingPathComponent("receiver.port")
            process = try PythonChild.start(["-c", Self.script, portFile.path])
            #expect(await eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: portFile.path) })
            port = try #require(Int(try String(contentsOf: portFile, encoding: .utf8)))
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }

    @Test("A refused connection is recorded at once and retried on schedule; a healthy endpoint beside it gets its event")
    func aRefusedPortFailsAtOnce() async throws {
        try await withTemporaryDirectory { root in
            let (_, _, store) = try TestStore.unlockedStore()
            let contact = try store.addContact(name: "alice", number: nil, pairingCode: Data())
            let receiver = try await Receiver(in: root)
            let secrets = [try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")]
            // Nothing listens on the discard port on a test machine; retried after a short first wait.
            let closed = WebhookEndpoint(
                url: URL(string: "http://127.0.0.1:9/hook")!, events: [.messageReceived], secrets: secrets,
                retry: RetrySchedule(baseSeconds: 0.5), timeoutSeconds: 3600)
            let healthy = WebhookEndpoint(
                url: URL(string: "http://127.0.0.1:\(receiver.port)/hook")!, events: [.messageReceived], secrets: secrets)
            // A connect timeout and a request deadline far beyond the wait below: only a refusal
            // that fails at once (not tried again until either) is seen in time.
            let dispatcher = WebhookDispatcher(
                endpoints: [closed, healthy], runner: StoreRunner(store: store), logger: Logger(label: "webhook-refused"), node: nil,
                connectTimeout: .seconds(3600))
            let running = Task { try await dispatcher.run() }
            // An endpoint's first delivery is of the first event after its worker started.
            #expect(await eventually { store.gateway.commits.waiting == 2 }, "both workers wait for a commit")
            try store.write { tx in
                try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .decrypted, text: "hello"))
            }
            func delivery(to endpoint: WebhookEndpoint) throws -> WebhookDelivery? {
                try Webhooks.deliveries(store: store).first { $0.endpoint == endpoint.key }
            }
            #expect(await eventually(timeout: MemoryRig.patience) { try delivery(to: healthy)?.state == .delivered })
            // Tried, refused, and tried again on the endpoint's schedule.
            #expect(await eventually(timeout: MemoryRig.patience) { try delivery(to: closed)?.attempts ?? 0 >= 2 })
            let refused = try #require(try delivery(to: closed))
            #expect(refused.state == .pending && refused.nextAttemptAt != nil, "kept for the endpoint's retry schedule")
            #expect(refused.lastError?.hasPrefix("The connection was refused") == true, "\(refused.lastError ?? "no error")")
            running.cancel()
            _ = try? await running.value
        }
    }
}
