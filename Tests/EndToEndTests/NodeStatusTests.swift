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
            var node: String?
        }
        var nodes: [Node]
        var modems: [Modem]
    }

    static func report(_ rig: GatewayRig, _ peer: Peer) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Data(peer.expect(["status", "--json"]).stdout.utf8))
    }

    @Test("A running node is up with its modem; stopped cleanly it is stopped; killed, it is down once its lease ends")
    func upStoppedDown() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            let file = rig.configuration(of: rig.alice)
            // health_seconds = 5 in the rig and 30 s modem calls: a lease of 70 s.
            let toml = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            try Data((toml + "\n[node]\nname = \"north-1\"\n").utf8).write(to: file)
            try rig.startDaemon(rig.alice)
            try await GatewayRig.wait("alice's modem to be ready", timeout: 60) { try rig.status(rig.alice).modemReady }
            let running = try Self.report(rig, rig.alice)
            #expect(running.nodes == [Node(name: "north-1", state: "up", modems: ["alice-modem"])])
            #expect(running.modems.map(\.node) == ["north-1"])
            let text = try rig.alice.expect(["status"]).stdout
            #expect(text.contains("Nodes:\n  north-1: up, heartbeat "), "\(text)")

            #expect(try await rig.stopDaemon(rig.alice) == 0)
            #expect(try Self.report(rig, rig.alice).nodes.map(\.state) == ["stopped"])

            try rig.startDaemon(rig.alice)
            try await GatewayRig.wait("alice's modem to be ready again", timeout: 60) { try rig.status(rig.alice).modemReady }
            try await rig.stopDaemon(rig.alice, signal: SIGKILL)
            // Killed: its last heartbeat stands until the lease has passed, then it is down.
            try await GatewayRig.wait("the killed node to show down", timeout: 180) {
                try Self.report(rig, rig.alice).nodes.map(\.state) == ["down"]
            }
            #expect(try rig.alice.expect(["status"]).stdout.contains("north-1: down"))
        }
    }
}
