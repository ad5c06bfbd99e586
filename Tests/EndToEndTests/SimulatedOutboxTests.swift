import Foundation
import TestSupport
import Testing

/// `serve --sim` honours the configuration's `[outbox]` as `serve` does.
@Suite("serve --sim: the configuration's [outbox]")
struct SimulatedOutboxTests {
    @Test("With [outbox] max_attempts = 1, an SMS the simulated network refuses temporarily fails after one attempt")
    func outboxLimitKept() async throws {
        try await withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", bob.name, "--number", "+15550002"])
            let config = root.appendingPathComponent("smsgw.toml")
            try Data("[outbox]\nmax_attempts = 1\nmax_age_seconds = 0\n".utf8).write(to: config)
            let directory = root.appendingPathComponent("sim")
            let daemon = try ServeProcess(alice, ["--sim", "--sim-dir", directory.path, "--config", config.path], in: root)
            try await daemon.waitUntilServing(alice)
            // Every SMS the gateway's modem submits is refused with a temporary error (CMS 38,
            // network out of order), which the sender retries until the limit.
            let fault = try alice.expect(["sim", "ctl", "--dir", directory.path, "senderror", "38", "1"])
            #expect(fault.stdout.contains("OK"), "\(fault.stdout)")
            let id = try #require(try alice.expect(["send", bob.name], input: "refused by the network\n").lines.first)

            var shown = ""
            try await GatewayRig.wait("the message to fail after its one attempt", timeout: 120) {
                shown = try alice.expect(["log", "show", id]).stdout
                return shown.contains("Gave up")
            }
            #expect(shown.contains("Gave up after 1 attempts that failed temporarily"), "\(shown)")
            #expect(try await daemon.stop() == 0)
        }
    }
}
