import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two `smsgw serve` nodes on one PostgreSQL store, end to end (issue 18, items 2 and 4), set up
/// by ``TwoNodeRig``: node alpha and node beta share the account; bob (SQLite) is its peer.
@Suite("Two nodes on one PostgreSQL store, end to end", .serialized)
struct MultiNodeTests {
    static let texts = (1...20).map { "two nodes, message \($0)" }

    /// The query counting the texts `modem` sent (its claims that left).
    static func textsSent(by modem: String) -> String {
        "SELECT count(*) FROM outbox WHERE kind = 'text' AND modem = '\(modem)' AND state IN ('sent', 'delivered')"
    }

    /// Node states by name, from `status --json` on `peer`'s host.
    static func nodes(_ peer: Peer) async throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try await NodeStatusTests.report(peer).nodes.map { ($0.name, $0.state) })
    }

    /// Bob's inbound texts from the account, from `smsgw log --json`.
    static func received(by bob: Peer) async throws -> [LoggedMessage] {
        try await offPool {
            let result = try bob.expect(["log", "--json", "--limit", "10000"])
            return try result.lines.map { try JSONDecoder().decode(LoggedMessage.self, from: Data($0.utf8)) }
                .filter { $0.direction == "in" }
        }
    }

    @Test("Two nodes share the outbox; a killed node's messages and pinned contact are taken over, no position twice")
    func twoNodesOnePostgreSQLStore() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let rig = try await TwoNodeRig(root: root, cluster: cluster)
            let (alpha, beta, bob) = (rig.alpha, rig.beta, rig.bob)
            // Bob's SMS go out through alpha's modem while alpha is up.
            try await offPool { try alpha.expect(["contact", "edit", "bob", "--modem", "alpha-modem"]) }
            let bobDaemon = try await rig.start(bob)
            var alphaDaemon = try await rig.start(alpha)
            let betaDaemon = try await rig.start(beta)
            defer { _ = (bobDaemon, betaDaemon) }
            try await NodeStatusTests.wait("both nodes up with ready modems", beta, timeout: 120) { report in
                Set(report.nodes.filter { $0.state == "up" }.map(\.name)) == ["alpha", "beta"]
                    && Set(report.modems.filter { $0.state == "ready" }.map(\.name)) == ["alpha-modem", "beta-modem"]
            }

            // Half the texts are queued on each node's host; all go to bob through alpha's modem.
            let texts = Self.texts
            try await offPool {
                try alpha.expect(["send", "bob", "--lines"], input: texts[..<10].map { $0 + "\n" }.joined())
                try beta.expect(["send", "bob", "--lines"], input: texts[10...].map { $0 + "\n" }.joined())
            }
            let sentByAlpha = Self.textsSent(by: "alpha-modem")
            try await TwoNodeRig.wait("alpha's modem to send a few texts", timeout: 120, every: 0.2) {
                try await rig.count(sentByAlpha) >= 3
            }
            kill(alphaDaemon.pid, SIGKILL)
            let sentBeforeKill = try await rig.count(sentByAlpha)
            #expect(sentBeforeKill < texts.count, "alpha sent every text before it was killed: no takeover was tested")
            #expect(try await rig.count("SELECT count(*) FROM outbox WHERE modem = 'beta-modem' AND kind = 'text'") == 0)

            // Past alpha's lease beta reports it down, takes its claims and sends bob's texts.
            try await NodeStatusTests.wait("alpha to show down", beta, timeout: 180, every: 3) { report in
                report.nodes.contains { $0.name == "alpha" && $0.state == "down" }
            }
            try await TwoNodeRig.wait("bob to decrypt every text", timeout: 300, every: 3) {
                Set(try await Self.received(by: bob).filter { $0.status == "decrypted" }.compactMap(\.text)).isSuperset(of: texts)
            }
            let received = try await Self.received(by: bob)
            for text in texts {
                #expect(received.filter { $0.status == "decrypted" && $0.text == text }.count == 1, "\(text)")
            }
            let statuses = Set(received.map(\.status))
            #expect(statuses.isSubset(of: ["decrypted", "duplicate"]), "bob logged \(statuses)")
            #expect(try await rig.count("SELECT count(*) FROM outbox WHERE modem = 'beta-modem' AND kind = 'text'") >= 1)

            // Every text was sealed once, at its own position, and left.
            let seals = try await rig.sql(
                """
                SELECT count(*), count(DISTINCT (epoch, position)), count(position), count(DISTINCT body)
                FROM outbox WHERE kind = 'text'
                """)
            #expect(seals == ["20|20|20|20"])
            #expect(try await rig.count("SELECT count(*) FROM outbox WHERE kind = 'text' AND state NOT IN ('sent', 'delivered')") == 0)

            // Alpha started again is up, and bob's next text leaves through alpha's modem again.
            alphaDaemon = try await rig.start(alpha)
            try await NodeStatusTests.wait("alpha to be up with its modem ready", beta, timeout: 120) { report in
                report.nodes.contains { $0.name == "alpha" && $0.state == "up" }
                    && report.modems.contains { $0.name == "alpha-modem" && $0.state == "ready" }
            }
            try await offPool { try beta.expect(["send", "bob", "alpha is back"]) }
            try await TwoNodeRig.wait("the text after alpha's restart to leave through alpha's modem", timeout: 120) {
                try await rig.sql(
                    """
                    SELECT modem FROM outbox WHERE state IN ('sent', 'delivered')
                        AND id = (SELECT max(id) FROM outbox WHERE kind = 'text')
                    """) == ["alpha-modem"]
            }
            _ = alphaDaemon
        }
    }

    @Test("A text queued through one node's host wakes the node whose modem sends it, long before its fallback read")
    func notifyWakesTheOtherNode() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            // The nodes' fallback read of the outbox comes every 300 s: only a wake-up is sooner.
            let rig = try await TwoNodeRig(root: root, cluster: cluster, healthSeconds: 300)
            let (alpha, beta) = (rig.alpha, rig.beta)
            try await offPool { try alpha.expect(["contact", "edit", "bob", "--modem", "alpha-modem"]) }
            let daemons = [try await rig.start(rig.bob), try await rig.start(alpha), try await rig.start(beta)]
            defer { _ = daemons }
            try await NodeStatusTests.wait("both nodes up with ready modems", beta, timeout: 120) { report in
                Set(report.nodes.filter { $0.state == "up" }.map(\.name)) == ["alpha", "beta"]
                    && Set(report.modems.filter { $0.state == "ready" }.map(\.name)) == ["alpha-modem", "beta-modem"]
            }
            // A first text through alpha's own host (its status socket wakes it): after it left,
            // alpha's sender has nothing due before its next fallback read.
            try await offPool { try alpha.expect(["send", "bob", "first, through alpha"]) }
            let sentByAlpha = Self.textsSent(by: "alpha-modem")
            try await TwoNodeRig.wait("the first text to leave through alpha's modem", timeout: 120) {
                try await rig.count(sentByAlpha) == 1
            }

            // Queued through beta's host, whose daemon may not send it (bob is pinned to alpha's
            // modem): only alpha's sender, woken by the store's notice, sends it this soon.
            try await offPool { try beta.expect(["send", "bob", "second, through beta"]) }
            try await TwoNodeRig.wait("the text queued through beta to leave through alpha's modem", timeout: 120) {
                try await rig.count(sentByAlpha) == 2
            }
            #expect(try await rig.count("SELECT count(*) FROM outbox WHERE modem = 'beta-modem'") == 0)
        }
    }
}
