// Webhook delivery throughput: events a daemon's dispatcher delivers per second to a receiver on
// loopback that answers 200 at once, with 1 and with 4 endpoints, in a release build:
//   swift run -c release WebhookBenchmark [EVENTS]
// Each event costs a store transaction to take it, a signed POST, and a transaction to record the
// answer; an endpoint's next event waits for the one before, so one endpoint is bounded by that
// round trip and several run side by side. Figures are recorded in docs/PERFORMANCE.md. This is
// not a test: nothing here asserts a time.
import Foundation
import Gateway
import Logging
import Operations
import Store

let events = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2_000
let receiver = try LoopbackReceiver()
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-webhook-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let logger: Logger = {
    var logger = Logger(label: "webhook-benchmark")
    logger.logLevel = .error
    return logger
}()
let store = try GatewayStore.open(directory: directory, logger: logger)
    .createAccount(username: "bench", passphrase: "webhook benchmark passphrase", parameters: .minimum)
let secret = try WebhookSecret(WebhookSecret.random())

/// Delivers `events` new events to each of `count` endpoints; returns events delivered per second.
func run(endpoints count: Int, round: Int) async throws -> Double {
    let endpoints = (0..<count).map { index in
        WebhookEndpoint(url: URL(string: "http://127.0.0.1:\(receiver.port)/r\(round)/e\(index)")!, secrets: [secret])
    }
    try store.write { tx in
        try Webhooks.register(endpoints, in: tx, now: Date())
        for index in 0..<events {
            try tx.appendLog(
                NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "+15550002", status: .decrypted, text: "event \(index)"))
        }
    }
    let dispatcher = WebhookDispatcher(endpoints: endpoints, store: store, logger: logger)
    let clock = ContinuousClock()
    let start = clock.now
    let task = Task { try await dispatcher.run() }
    while true {
        let delivered = try Webhooks.list(configured: endpoints, store: store).filter(\.configured).reduce(0) { $0 + $1.delivered }
        if delivered >= events * count { break }
        try await Task.sleep(for: .milliseconds(5))
    }
    let elapsed = clock.now - start
    task.cancel()
    _ = try? await task.value
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(events * count) / seconds
}

#if DEBUG
    let build = "debug build: use -c release for figures"
#else
    let build = "release build"
#endif
print("Webhook delivery to a loopback receiver, \(events) events per endpoint (\(build)):")
for (round, count) in [1, 4].enumerated() {
    let rate = try await run(endpoints: count, round: round)
    print("  \(count) endpoint\(count == 1 ? "" : "s"): \(Int(rate.rounded())) events/s delivered (\(receiver.requests) requests so far)")
}
