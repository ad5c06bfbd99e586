import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Sharing a vault item between two real daemons on the simulated network (docs/VAULT.md,
/// "Sharing over SMS"), with SMS lost and repeated, and with the receiving daemon killed in the
/// middle of a share.
@Suite("Vault sharing between gateways", .serialized)
struct VaultShareTests {
    static let quick = [
        "SMSGW_INTERVALS_POLL_SECONDS": "1", "SMSGW_INTERVALS_ACK_DELAY_SECONDS": "1", "SMSGW_INTERVALS_ACK_TIMEOUT_SECONDS": "6",
    ]
    /// Notes long enough for a share of several SMS.
    static let notes = String(repeating: "Recovery codes: 1234-5678, Grüße. ", count: 10)

    /// Both gateways with acknowledgements on, alice's item added, both daemons running.
    func rig(root: URL) async throws -> GatewayRig {
        let rig = try await GatewayRig(root: root)
        try rig.alice.expect(["contact", "edit", "bob", "--acks", "on"])
        try rig.bob.expect(["contact", "edit", "alice", "--acks", "on"])
        try rig.alice.expect(
            ["vault", "add", "Mail", "--username", "me@example.org", "--password-stdin", "--notes-stdin"],
            input: "s3cret-Pässword\n" + Self.notes)
        for peer in [rig.alice, rig.bob] { try rig.startDaemon(peer, environment: Self.quick) }
        try await GatewayRig.wait("both daemons to be ready", timeout: 60) {
            try [rig.alice, rig.bob].allSatisfy { try rig.status($0).modemReady }
        }
        return rig
    }

    func items(_ peer: Peer) throws -> [[String: Any]] {
        let result = try peer.expect(["vault", "list", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    func acknowledged(_ peer: Peer) throws -> Bool {
        let result = try peer.expect(["vault", "shares", "Mail", "--json"])
        let holders = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return holders.count == 1 && holders[0]["acknowledged"] as? Bool == true
    }

    @Test("a use share arrives once under 10% loss and 5% duplication, with its owner and permission, and is acknowledged")
    func underLoss() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await rig(root: root)
            try rig.control("drop", "0.1")
            try rig.control("duplicate", "0.05")
            try rig.alice.expect(["vault", "share", "Mail", "bob", "--permission", "use", "--expires", "7d"])
            try await GatewayRig.wait("the share to reach bob", timeout: 240) { try !items(rig.bob).isEmpty }
            let item = try #require(try items(rig.bob).first)
            #expect(item["title"] as? String == "Mail" && item["owner"] as? String == "alice" && item["permission"] as? String == "use")
            #expect(try rig.bob.run(["vault", "show", "Mail", "--reveal"]).status == 65)
            try rig.control("drop", "0")
            try await GatewayRig.wait("alice to see the share acknowledged", timeout: 120) { try acknowledged(rig.alice) }
            #expect(try items(rig.bob).count == 1)
            try await rig.stopBoth()
        }
    }

    @Test("kill -9 of the receiving daemon in the middle of a share loses nothing")
    func killedMidShare() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await rig(root: root)
            try rig.control("delay", "1", "12")  // the parts arrive seconds apart
            try rig.alice.expect(["vault", "share", "Mail", "bob", "--permission", "use+share"])
            try await GatewayRig.wait("a first part to reach bob", timeout: 120) {
                try rig.log(rig.bob).contains { $0.status == "typed" && ($0.text ?? "").hasPrefix("Vault share") }
            }
            try await rig.stopDaemon(rig.bob, signal: SIGKILL)
            let partsBeforeKill = try rig.log(rig.bob).filter { ($0.text ?? "").hasPrefix("Vault share") }.count
            let wholeBeforeKill = try !items(rig.bob).isEmpty
            try rig.control("delay", "0", "0")
            try rig.startDaemon(rig.bob, environment: Self.quick)
            try await GatewayRig.wait("the share to reach bob whole", timeout: 240) { try !items(rig.bob).isEmpty }
            #expect(try items(rig.bob).map { $0["permission"] as? String } == ["use+share"])
            // Recorded, not asserted: under load every part may have arrived before the kill.
            print("vault share: \(partsBeforeKill) parts before the kill, whole: \(wholeBeforeKill)")
            try await GatewayRig.wait("alice to see the share acknowledged", timeout: 120) { try acknowledged(rig.alice) }
            try await rig.stopBoth()
        }
    }

    func password(_ peer: Peer) throws -> String? {
        let result = try peer.run(["vault", "exec", "Mail", "--", "sh", "-c", "printf %s \"$SMSGW_VAULT_PASSWORD\""])
        return result.status == 0 ? result.stdout : nil
    }

    @Test(
        "three gateways under loss and duplication: a re-share to the second level, the third refused, an update to all, a cascading revocation"
    )
    func threeGateways() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root, withCarol: true)
            let carol = try #require(rig.carol)
            try rig.alice.expect(["contact", "edit", "bob", "--acks", "on"])
            try rig.bob.expect(["contact", "edit", "alice", "--acks", "on"])
            try rig.bob.expect(["contact", "edit", "carol", "--acks", "on"])
            try carol.expect(["contact", "edit", "bob", "--acks", "on"])
            try rig.alice.expect(["vault", "add", "Mail", "--password-stdin"], input: "first-Pässword\n")
            for peer in [rig.alice, rig.bob, carol] { try rig.startDaemon(peer, environment: Self.quick) }
            try await GatewayRig.wait("the daemons to be ready", timeout: 60) {
                try [rig.alice, rig.bob, carol].allSatisfy { try rig.status($0).modemReady }
            }
            try rig.control("drop", "0.1")
            try rig.control("duplicate", "0.05")

            try rig.alice.expect(["vault", "share", "Mail", "bob", "--permission", "use+share"])
            try await GatewayRig.wait("the share to reach bob", timeout: 240) { try !items(rig.bob).isEmpty }
            try rig.bob.expect(["vault", "share", "Mail", "carol", "--permission", "use"])
            try await GatewayRig.wait("the re-share to reach carol", timeout: 240) { try !items(carol).isEmpty }
            #expect(try items(carol).first?["level"] as? Int == 2)
            #expect(try carol.run(["vault", "share", "Mail", "bob", "--permission", "use"]).status == 65)
            try await GatewayRig.wait("alice to list carol via bob", timeout: 240) {
                let shares = try rig.alice.expect(["vault", "shares", "Mail", "--json"]).stdout
                return shares.contains("\"carol\"") && shares.contains("\"via\":\"bob\"")
            }

            try rig.alice.expect(["vault", "edit", "Mail", "--password-stdin"], input: "second-Pässword\n")
            try rig.alice.expect(["vault", "update", "Mail"])
            try await GatewayRig.wait("the update to reach bob and carol", timeout: 240) {
                try password(rig.bob) == "second-Pässword" && password(carol) == "second-Pässword"
            }

            let revoked = try rig.alice.expect(["vault", "revoke", "Mail", "bob"])
            #expect(revoked.stdout.contains("may have kept it"))
            try await GatewayRig.wait("the revocation to reach bob and carol", timeout: 240) {
                try items(rig.bob).isEmpty && items(carol).isEmpty
            }
            try await GatewayRig.wait("bob's removal report to reach alice", timeout: 240) {
                try rig.alice.expect(["vault", "shares", "Mail", "--json"]).stdout.contains("\"removed\"")
            }
            try await rig.stopDaemon(carol)
            try await rig.stopBoth()
        }
    }
}
