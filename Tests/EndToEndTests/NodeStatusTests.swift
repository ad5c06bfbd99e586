import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon as a node of its store, seen through `smsgw status --json` as an operator sees it.
@Suite("Nodes in the status, end to end", .serialized)
struct NodeStatusTests {
    /// The parts of a node in `status --json` these tests read.
    struct Node: Decodable, Equatable {
        var name: String
        var state: String
        var modems: [String]
    }

    struct Report: Decodable {
        struct Modem: Decodable {
            var name: String
            var state: String
            var node: String?
        }
        var nodes: [Node]
        var modems: [Modem]
    }

    /// `status --json` of `peer`, run off Swift's cooperative pool: without a daemon it unlocks the
    /// store (Argon2id), which must not hold up the in-process gateways of other suites.
    static func report(_ peer: Peer) async throws -> Report {
        try await offPool { try JSONDecoder().decode(Report.self, from: Data(peer.expect(["status", "--json"]).stdout.utf8)) }
    }

    /// Polls `peer`'s status every `every` seconds (sleeping, off the pool) until `condition` holds.
    static func wait(
        _ what: String, _ peer: Peer, timeout: TimeInterval, every: Double = 1, until condition: (Report) -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let report = try await Self.report(peer)
            if condition(report) { return }
            guard Date() < deadline else {
                Issue.record("Timed out after \(Int(timeout)) s waiting for \(what); the status says \(report.nodes).")
                throw GatewayRig.TimedOut()
            }
            try await Task.sleep(for: .seconds(every))
        }
    }

    @Test("A running node is up with its modem; stopped cleanly it is stopped; killed, it is down once its lease ends")
    func upStoppedDown() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            let alice = rig.alice
            let file = rig.configuration(of: alice)
            // health_seconds = 5 in the rig and 10 s modem calls: a lease of 30 s.
            let toml = String(decoding: try Data(contentsOf: file), as: UTF8.self)
                .replacingOccurrences(of: "[[modem]]\n", with: "[[modem]]\ncall_timeout_seconds = 10\n")
            try Data((toml + "\n[node]\nname = \"north-1\"\n").utf8).write(to: file)
            try rig.startDaemon(alice)
            try await Self.wait("alice's modem to be ready", alice, timeout: 60) { $0.modems.first?.state == "ready" }
            let running = try await Self.report(alice)
            #expect(running.nodes == [Node(name: "north-1", state: "up", modems: ["alice-modem"])])
            #expect(running.modems.map(\.node) == ["north-1"])
            let text = try await offPool { try alice.expect(["status"]).stdout }
            #expect(text.contains("Nodes:\n  north-1: up, heartbeat "), "\(text)")

            #expect(try await rig.stopDaemon(alice) == 0)
            #expect(try await Self.report(alice).nodes.map(\.state) == ["stopped"])

            try rig.startDaemon(alice)
            try await Self.wait("alice's modem to be ready again", alice, timeout: 60) { $0.modems.first?.state == "ready" }
            try await rig.stopDaemon(alice, signal: SIGKILL)
            // Killed: the data directory's lock is free at once, so the status says the node
            // stopped without a clean shutdown, while its lease still holds for other nodes.
            let killed = try await offPool { try alice.expect(["status", "--json"]).stdout }
            #expect(killed.contains(#""state":"up","stoppedUncleanly":true"#), "\(killed)")
            let killedText = try await offPool { try alice.expect(["status"]).stdout }
            #expect(killedText.contains("north-1: stopped without a clean shutdown, heartbeat "), "\(killedText)")
            #expect(killedText.contains("lease would have ended at "), "\(killedText)")
            #expect(!killedText.contains("north-1: up"), "\(killedText)")
            // Its last heartbeat stands until the lease has passed, then it is down. Each look
            // unlocks the store, so look every few seconds.
            try await Self.wait("the killed node to show down", alice, timeout: 180, every: 5) { $0.nodes.map(\.state) == ["down"] }
            #expect(try await offPool { try alice.expect(["status"]).stdout }.contains("north-1: down"))
        }
    }
}
