import Foundation
import Store
import TestSupport
import Testing

/// Two `smsgw serve` nodes on a primary with a synchronous standby; the primary is lost in
/// mid-traffic and the standby promoted (issue 18, item 4). The nodes reach the database through
/// a ``TCPForwarder`` standing for the virtual IP (or DNS name, or proxy) an installation moves
/// to the promoted server, so they are not reconfigured: they must reconnect by themselves.
@Suite("Losing the PostgreSQL primary, end to end", .serialized)
struct FailoverTests {
    /// Enough for about 14 s of sending on two simulated modems: the primary stops while some
    /// are still queued even when a loaded machine is slow to see the first ones leave.
    static let before = (1...40).map { "before the failover, message \($0)" }
    static let after = ["after the promotion, through alpha's modem", "after the promotion, through beta's modem"]

    @Test(
        "The primary stops in mid-traffic and its synchronous standby is promoted: both nodes reconnect and go on sending; nothing acknowledged is lost, no position is sealed twice"
    )
    func promotedStandby() async throws {
        _ = try requirePostgres()
        let pair = try await offPool { try PostgresClusterPair() }
        let forwarder = try TCPForwarder(to: pair.primary.port)
        defer { forwarder.close() }
        try await withTemporaryDirectory { root in
            let rig = try await TwoNodeRig(root: root, cluster: pair.primary, port: forwarder.port)
            let (alpha, beta, bob) = (rig.alpha, rig.beta, rig.bob)
            // A synchronous standby: the nodes start on it without allow_asynchronous_replicas.
            let check = try await offPool { try alpha.run(["serve", "--check", "--config", rig.configuration(of: alpha).path]) }
            #expect(check.stdout.contains("; durable"), "\(check.stdout)")
            let daemons = (bob: try await rig.start(bob), alpha: try await rig.start(alpha), beta: try await rig.start(beta))
            try await Self.waitUntilBothUp(beta)

            // Queued through both hosts (each `send` exiting 0 is the acknowledgement), sent by both modems.
            try await offPool {
                try alpha.expect(["send", "bob", "--lines"], input: Self.before[..<20].map { $0 + "\n" }.joined())
                try beta.expect(["send", "bob", "--lines"], input: Self.before[20...].map { $0 + "\n" }.joined())
            }
            // The primary is lost once a few texts have left. Looked at and stopped on one thread of
            // its own: a starved cooperative pool must not let the queue drain between the two.
            let sent = "SELECT count(*) FROM outbox WHERE kind = 'text' AND state IN ('sent', 'delivered')"
            let sentBeforeStop = try await offPool {
                let deadline = Date().addingTimeInterval(120)
                var count = Int(try rig.sqlBlocking(sent).first ?? "") ?? -1
                while count < 3 {
                    guard Date() < deadline else { throw GatewayRig.TimedOut() }
                    Thread.sleep(forTimeInterval: 0.2)
                    count = Int(try rig.sqlBlocking(sent).first ?? "") ?? -1
                }
                try pair.stopPrimary()
                return count
            }
            // While there is no primary, a text is refused in a sentence, and never sent.
            #expect(sentBeforeStop < Self.before.count, "every text left before the primary stopped: no failover was tested")
            let during = "during the failover, before the promotion"
            let refused = try await offPool { try alpha.run(["send", "bob", during]) }
            #expect(refused.status == 74 && refused.stderr.contains("cannot connect to the PostgreSQL server"), "\(refused.stderr)")
            try await offPool { try pair.promoteStandby() }
            forwarder.forward(to: pair.standbyPort)
            #expect(try await rig.sql("SELECT pg_is_in_recovery(), inet_server_port()") == ["f|\(pair.standbyPort)"])

            // Both nodes came back to the promoted server by themselves, and each modem sends again.
            try await Self.waitUntilBothUp(beta)
            for (text, host, modem) in [(Self.after[0], beta, "alpha-modem"), (Self.after[1], alpha, "beta-modem")] {
                try await offPool {
                    try host.expect(["contact", "edit", "bob", "--modem", modem])
                    try host.expect(["send", "bob", text])
                }
                try await TwoNodeRig.wait("\(text) to leave", timeout: 180) {
                    try await rig.sql(
                        "SELECT modem FROM outbox WHERE state IN ('sent', 'delivered') AND id = (SELECT max(id) FROM outbox WHERE kind = 'text')"
                    ) == [modem]
                }
            }
            #expect(daemons.alpha.process.isRunning && daemons.beta.process.isRunning, "a node exited when the primary was lost")

            // Every acknowledged text is on the promoted server and reached bob exactly once.
            let acknowledged = Self.before + Self.after
            try await TwoNodeRig.wait("bob to decrypt every acknowledged text", timeout: 300, every: 3) {
                Set(try await MultiNodeTests.received(by: bob).filter { $0.status == "decrypted" }.compactMap(\.text))
                    .isSuperset(of: acknowledged)
            }
            let queued = try await offPool { try alpha.expect(["log", "--json", "--limit", "10000"]).lines }
                .map { try JSONDecoder().decode(LoggedMessage.self, from: Data($0.utf8)) }.filter { $0.direction == "out" }
            #expect(Set(queued.compactMap(\.text)).isSuperset(of: acknowledged))
            let received = try await MultiNodeTests.received(by: bob)
            for text in Set(received.compactMap(\.text)) {
                #expect(received.filter { $0.status == "decrypted" && $0.text == text }.count == 1, "\(text)")
            }
            #expect(!received.contains { $0.text == during })
            let statuses = Set(received.map(\.status))
            #expect(statuses.isSubset(of: ["decrypted", "duplicate"]), "bob logged \(statuses)")

            // No position of the chain was sealed twice, and every text row left.
            let seals = try await rig.sql(
                "SELECT count(*), count(DISTINCT (epoch, position)), count(position), count(DISTINCT body) FROM outbox WHERE kind = 'text'")
            let rows = queued.count
            #expect(seals == ["\(rows)|\(rows)|\(rows)|\(rows)"])
            // A text whose record was refused while there was no primary is recorded once the
            // standby takes writes, or sent again by the other node if its lease ended meanwhile
            // (bob drops that copy); either may come after bob has every text.
            let left = "SELECT id, state, node, attempts, last_error FROM outbox WHERE kind = 'text' AND state NOT IN ('sent', 'delivered')"
            var remaining: [String] = []
            let allLeft = await eventually(timeout: .seconds(120), every: .seconds(1)) {
                remaining = (try? await rig.sql(left)) ?? ["(the store could not be read)"]
                return remaining.isEmpty
            }
            #expect(allLeft, "text rows that never left: \(remaining)")
            _ = daemons
        }
    }

    /// Waits until `status` on `peer`'s host shows nodes alpha and beta up with their modems
    /// ready; a status that fails meanwhile (a daemon busy reconnecting) is asked again.
    private static func waitUntilBothUp(_ peer: Peer) async throws {
        let deadline = Date().addingTimeInterval(180)
        var last = ""
        while true {
            let result = try await offPool { try peer.run(["status", "--json"]) }
            if result.status == 0 {
                let report = try JSONDecoder().decode(NodeStatusTests.Report.self, from: Data(result.stdout.utf8))
                if Set(report.nodes.filter { $0.state == "up" }.map(\.name)) == ["alpha", "beta"]
                    && Set(report.modems.filter { $0.state == "ready" }.map(\.name)) == ["alpha-modem", "beta-modem"]
                {
                    return
                }
                last = "\(report.nodes)"
            } else {
                last = result.stderr
            }
            guard Date() < deadline else {
                Issue.record("Timed out after 180 s waiting for both nodes up with ready modems; the last status: \(last)")
                throw GatewayRig.TimedOut()
            }
            try await Task.sleep(for: .seconds(1))
        }
    }
}
