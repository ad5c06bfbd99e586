import Foundation
import TestSupport
import Testing

/// `smsgw node forget` as an operator runs it: a node that ran and stopped leaves the status.
@Suite("node forget, end to end")
struct NodeForgetCommandTests {
    @Test("Refused while the node is up, unknown names exit 66, confirmed by --yes; the status no longer lists it; audited")
    func forgetStoppedNode() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let daemon = try await ServeProcess.simulated(alice, in: root, environment: ["SMSGW_NODE_NAME": "north-1"])
            let up = try alice.run(["node", "forget", "north-1", "--yes"])
            #expect(up.status == 75 && up.stderr.contains("The node north-1 is up (its last heartbeat, at "), "\(up.stderr)")
            #expect(try await daemon.stop() == 0)

            // No terminal to confirm on, and no --yes: nothing is forgotten.
            let unconfirmed = try alice.run(["node", "forget", "north-1"])
            #expect(unconfirmed.status == 64, "\(unconfirmed.stderr)")
            #expect(try alice.status().daemon?.running != true)
            #expect(try alice.expect(["status"]).stdout.contains("north-1: stopped"))
            let unknown = try alice.run(["node", "forget", "south-1", "--yes"])
            #expect(unknown.status == 66 && unknown.stderr.contains("No node named \"south-1\""), "\(unknown.stderr)")

            let forgot = try alice.expect(["node", "forget", "north-1", "--yes"])
            #expect(forgot.stdout == "Forgot the node north-1.\n")
            let status = try alice.expect(["status"]).stdout
            #expect(!status.contains("Nodes:") && !status.contains("north-1"), "\(status)")
            #expect(try alice.expect(["audit"]).stdout.contains("command-line\tnode-forgotten\tnode north-1\tdone"))
        }
    }
}
