import Foundation
import TestSupport
import Testing

/// `smsgw restore` of a backup taken before a pairing completed, as the operator sees it.
@Suite("smsgw restore and a pairing after the backup", .blockingOffPool)
struct RestorePairingTests {
    @Test("a contact paired after the backup: the restore and contact show say to pair again from new codes on both sides")
    func pairedAfterTheBackup() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let carol = try Peer.create("carol", in: root)
            let carolsCode = try carol.add(alice)
            _ = try alice.add(carol)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            _ = try alice.pair(carol, code: carolsCode)

            let restored = try alice.expect(["restore", backup.path])
            #expect(
                restored.stdout.contains(
                    "carol was paired after the backup was taken and holds keys this store no longer has: run `smsgw resync carol --manual` here"
                ), "\(restored.stdout)")
            let shown = try alice.expect(["contact", "show", "carol"]).stdout
            #expect(shown.contains("was taken before the pairing with carol completed"), "\(shown)")
            #expect(shown.contains("`smsgw resync carol --manual`"), "\(shown)")
            let object = try alice.expect(["contact", "show", "carol", "--json"]).stdout
            #expect(object.contains("\"state\":\"not paired\"") && object.contains("\"action\":\"pair\""), "\(object)")
            #expect(object.contains("\"keysRestoredAt\":\""), "\(object)")
            let json = try alice.expect(["restore", backup.path, "--json"]).stdout
            #expect(json.contains("\"pairedSinceBackup\":[]"), "the replaced store had carol not paired: \(json)")
        }
    }
}
