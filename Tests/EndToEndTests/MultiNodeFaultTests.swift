import Foundation
import TestSupport
import Testing

/// Two nodes on one PostgreSQL store exchanging texts with a peer gateway over a network that
/// loses, duplicates and reorders SMS (issue 18, item 4), set up by ``TwoNodeRig``.
@Suite("Two nodes on one PostgreSQL store, under network faults", .serialized)
struct MultiNodeFaultTests {
    @Test(
        "Long texts through both nodes and bob's replies arrive whole, once each, under 10% loss, 5% duplication and reordering, and are acknowledged"
    )
    func twoNodesUnderFaults() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let rig = try await TwoNodeRig(root: root, cluster: cluster)
            let (alpha, beta, bob) = (rig.alpha, rig.beta, rig.bob)
            // Acknowledgements on both ways: a lost part of a long text is sent again (the same
            // ciphertext; a text of one SMS is not, docs/PROTOCOL.md §9.2).
            try await offPool {
                try alpha.expect(["contact", "edit", "bob", "--acks", "on"])
                try bob.expect(["contact", "edit", "base", "--acks", "on"])
            }
            let daemons = [try await rig.start(bob), try await rig.start(alpha), try await rig.start(beta)]
            defer { _ = daemons }
            try await NodeStatusTests.wait("both nodes up with ready modems", beta, timeout: 120) { report in
                Set(report.nodes.filter { $0.state == "up" }.map(\.name)) == ["alpha", "beta"]
                    && Set(report.modems.filter { $0.state == "ready" }.map(\.name)) == ["alpha-modem", "beta-modem"]
            }
            try await rig.control("drop", "0.1")
            try await rig.control("duplicate", "0.05")
            try await rig.control("delay", "0", "3")

            // Long texts of three SMS each: two queued on each node's host, two replies from bob.
            let texts = LongTextFaultTests.texts("two nodes", count: 4)
            let replies = LongTextFaultTests.texts("bob's reply", count: 2)
            try await offPool {
                for text in texts[..<2] { try alpha.expect(["send", "bob"], input: text) }
                for text in texts[2...] { try beta.expect(["send", "bob"], input: text) }
                for text in replies { try bob.expect(["send", "base"], input: text) }
            }
            try await TwoNodeRig.wait("bob to decrypt every text", timeout: 300, every: 3) {
                Set(try await Self.decrypted(by: bob)).isSuperset(of: texts)
            }
            try await TwoNodeRig.wait("the base to decrypt every reply", timeout: 300, every: 3) {
                Set(try await Self.decrypted(by: alpha)).isSuperset(of: replies)
            }
            // Duplicates were dropped, not shown twice, on either side.
            let bobs = try await Self.decrypted(by: bob)
            for text in texts { #expect(bobs.filter { $0 == text }.count == 1, "\(text)") }
            let bases = try await Self.decrypted(by: beta)
            for reply in replies { #expect(bases.filter { $0 == reply }.count == 1, "\(reply)") }

            // With the network mended, every text of the account is acknowledged.
            try await rig.control("drop", "0")
            try await rig.control("duplicate", "0")
            try await rig.control("delay", "0", "0")
            try await TwoNodeRig.wait("the account's texts to be acknowledged", timeout: 180, every: 3) {
                let sent = try await offPool {
                    try alpha.expect(["log", "--json", "--limit", "10000"]).lines
                        .map { try JSONDecoder().decode(LoggedMessage.self, from: Data($0.utf8)) }.filter { $0.direction == "out" }
                }
                return sent.count == texts.count && sent.allSatisfy { $0.status == "acknowledged" }
            }
            // Each text sealed once, at a position of its own, whichever node sent it and however often.
            let seals = try await rig.sql(
                "SELECT count(*), count(DISTINCT (epoch, position)), count(DISTINCT body) FROM outbox WHERE kind = 'text'")
            #expect(seals == ["12|12|12"])
            let resent = try await rig.sql("SELECT COALESCE(SUM(resends), 0) FROM outbox")
            print("MultiNodeFaultTests: \(resent.first ?? "?") SMS of the account sent again for want of an acknowledgement")
        }
    }

    /// The texts `peer`'s log shows decrypted, one entry per showing.
    static func decrypted(by peer: Peer) async throws -> [String] {
        try await offPool {
            let result = try peer.expect(["log", "--json", "--limit", "10000"])
            return try result.lines.map { try JSONDecoder().decode(LoggedMessage.self, from: Data($0.utf8)) }
                .filter { $0.direction == "in" && $0.status == "decrypted" }.compactMap(\.text)
        }
    }
}
