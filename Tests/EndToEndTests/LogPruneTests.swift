import Foundation
import TestSupport
import Testing

/// `smsgw log prune`: the log does not keep texts for ever (docs/PROTOCOL.md §7.4).
@Suite("Log prune", .serialized)
struct LogPruneTests {
    @Test("log prune deletes old messages, keeps recent ones, and leaves no write-ahead log")
    func pruneDeletesOldMessages() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let ciphertexts = try alice.encrypt(["first secret", "second secret"], for: bob)
            #expect(try bob.decrypt(ciphertexts, from: alice).status == 0)
            #expect(try bob.expect(["log", "--json"]).lines.count == 2)

            let kept = try bob.expect(["log", "prune", "--older-than", "30"])
            #expect(kept.lines.first == "0", "\(kept.stdout)")
            #expect(try bob.expect(["log", "--json"]).lines.count == 2)

            let pruned = try bob.expect(["log", "prune", "--older-than", "0"])
            #expect(pruned.lines.first == "2", "\(pruned.stdout)")
            #expect(pruned.stderr.isEmpty, "\(pruned.stderr)")
            #expect(try bob.expect(["log"]).stdout.isEmpty)
            let wal = bob.dataDir.appendingPathComponent("smsgw.sqlite-wal")
            let size = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? 0
            #expect(size == 0)
            // The keys are untouched: messages still flow.
            let next = try alice.encrypt(["after the prune"], for: bob)
            #expect(try bob.decrypt(next, from: alice).lines == ["after the prune"])

            #expect(try bob.run(["log", "prune", "--older-than", "-1"]).status == 64)
            #expect(try bob.run(["log", "prune"]).status == 64)
        }
    }
}
