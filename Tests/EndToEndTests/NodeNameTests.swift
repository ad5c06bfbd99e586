import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two `smsgw serve` daemons started with one `[node] name` on one PostgreSQL store, end to end:
/// the second refuses to start while the first is up, and a daemon whose node another one took
/// over (its heartbeats stopped past its lease) stops rather than fight over it.
@Suite("One node name, one daemon, end to end", .serialized)
struct NodeNameTests {
    /// Waits until `daemon` exits; its exit status.
    static func exitStatus(of daemon: ServeProcess, _ what: String) async throws -> Int32 {
        try await GatewayRig.exit(of: daemon.process, what, timeout: 120).status
    }

    /// Stops `daemon` (SIGSTOP) at a moment it holds none of the store's locks: frozen inside a
    /// write it would keep every other writer waiting, the twin's start included.
    static func freezeOutsideTransactions(_ daemon: ServeProcess, _ rig: TwoNodeRig) async throws {
        let held = """
            SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """
        for _ in 0..<50 {
            kill(daemon.pid, SIGSTOP)
            if try await rig.count(held) == 0 { return }
            kill(daemon.pid, SIGCONT)
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("The daemon held a store lock each time it was stopped.")
    }

    @Test("A second daemon with a running node's name exits 65 naming the node; the first goes on; one taken over stops")
    func secondDaemonWithOneNameRefused() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let rig = try await TwoNodeRig(root: root, cluster: cluster)
            let (alpha, bob) = (rig.alpha, rig.bob)
            let bobDaemon = try await rig.start(bob)
            let alphaDaemon = try await rig.start(alpha)
            defer { _ = bobDaemon }
            try await NodeStatusTests.wait("alpha up with its modem ready", alpha, timeout: 120) { report in
                report.nodes.contains { $0.name == "alpha" && $0.state == "up" }
                    && report.modems.contains { $0.name == "alpha-modem" && $0.state == "ready" }
            }

            // Another host configured as alpha too, by mistake: refused, with the sentence.
            let twin = try rig.twin(of: alpha, named: "twin", modem: 3)
            let refused = try ServeProcess(twin, ["--config", rig.configuration(of: twin).path], in: root)
            #expect(try await Self.exitStatus(of: refused, "the second alpha to exit") == 65)
            let sentence = "Another daemon runs as the node alpha on this store"
            let refusal = refused.lines
            #expect(refusal.contains { $0.contains(sentence) && $0.contains("give each node its own [node] name") }, "\(refusal)")
            #expect(try await rig.count("SELECT count(*) FROM modem_status WHERE name = 'twin-modem'") == 0)

            // The first one goes on: up, and a text through it reaches bob.
            #expect(alphaDaemon.process.isRunning)
            try await offPool { try alpha.expect(["send", "bob", "alpha still serves"]) }
            try await TwoNodeRig.wait("bob to decrypt the text sent after the refusal", timeout: 180, every: 2) {
                try await MultiNodeTests.received(by: bob).contains { $0.status == "decrypted" && $0.text == "alpha still serves" }
            }
            #expect(try await MultiNodeTests.nodes(alpha)["alpha"] == "up")

            // Alpha hangs past its lease (24 s): the twin may start now; alpha, woken, stops.
            try await Self.freezeOutsideTransactions(alphaDaemon, rig)
            try await TwoNodeRig.wait("alpha's lease to end", timeout: 180, every: 2) {
                try await rig.count(
                    "SELECT count(*) FROM nodes WHERE name = 'alpha' AND heartbeat_at + lease_seconds < extract(epoch FROM now())") == 1
            }
            let taker = try await rig.start(twin)
            kill(alphaDaemon.pid, SIGCONT)
            #expect(try await Self.exitStatus(of: alphaDaemon, "the first alpha to stop once taken over") == 65)
            let stopping = alphaDaemon.lines
            #expect(stopping.contains { $0.contains("took the node over") && $0.contains("error") }, "\(stopping.suffix(5))")
            // The row stays the twin's: up, not marked stopped by the daemon that left.
            #expect(taker.process.isRunning)
            #expect(try await MultiNodeTests.nodes(twin)["alpha"] == "up")

            // Killed and started again on its own data directory, it need not wait for its lease.
            kill(taker.pid, SIGKILL)
            _ = try await Self.exitStatus(of: taker, "the twin to die")
            let restarted = try await rig.start(twin)
            #expect(restarted.process.isRunning && !restarted.lines.contains { $0.contains(sentence) })
        }
    }
}
