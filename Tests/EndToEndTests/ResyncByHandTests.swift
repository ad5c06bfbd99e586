import Foundation
import TestSupport
import Testing

/// A resync pasted by hand through `decrypt`: the contact's request is kept until the operator
/// accepts it, never completed silently (item 3 of the hardening issue).
@Suite("Resync by copy and paste", .serialized, .blockingOffPool)
struct ResyncByHandTests {
    static func status(_ peer: Peer) throws -> StatusReport.Contact {
        let result = try peer.expect(["status", "--json"])
        return try #require(try JSONDecoder().decode(StatusReport.self, from: Data(result.stdout.utf8)).contacts.first)
    }

    /// Alice (who reaches bob over SMS) starts a resync; returns the handshake as bob would paste it,
    /// taken from her log, and its code.
    static func handshake(startedBy alice: Peer) throws -> (ciphertext: String, code: String) {
        try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
        let started = try alice.expect(["resync", "bob", "--json"])
        let start = try JSONSerialization.jsonObject(with: Data(started.stdout.utf8)) as? [String: Any]
        let code = try #require(start?["code"] as? String)
        let log = try alice.expect(["log", "--json"]).lines.compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let ciphertext = try #require(log.last { $0["status"] as? String == "resync" }?["ciphertext"] as? String)
        #expect(ciphertext.count == 160)
        return (ciphertext, code)
    }

    @Test("decrypt keeps a resync request; resync --accept prints the answer; both sides reach epoch 1")
    func requestWaitsForTheOperator() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            // Alice reaches bob over SMS; bob pastes by hand (no number for alice).
            let (handshake, code) = try Self.handshake(startedBy: alice)

            let kept = try bob.run(["decrypt", "alice"], input: handshake + "\n")
            #expect(kept.status == 0, "decrypt exited \(kept.status): \(kept.stderr)")
            #expect(kept.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "decrypt answered by itself: \(kept.stdout)")
            #expect(kept.stderr.contains("code \(code)") && kept.stderr.contains("--accept"), "\(kept.stderr)")
            let waiting = try Self.status(bob)
            #expect(waiting.sync.state == "resync requested" && waiting.epoch == 0)
            #expect(waiting.sync.advice?.contains(code) == true)
            // A second paste of the same request is a duplicate and changes nothing.
            #expect(try bob.run(["decrypt", "alice"], input: handshake + "\n").status == 65)

            let accepted = try bob.expect(["resync", "alice", "--accept"])
            let answer = try #require(accepted.lines.first)
            #expect(answer.count == 160 && accepted.stderr.contains("send the printed answer"), "\(accepted.stderr)")
            #expect(try Self.status(bob).epoch == 1)
            let completed = try alice.run(["decrypt", "bob"], input: answer + "\n")
            #expect(completed.status == 0, "\(completed.stderr)")
            let aliceStatus = try Self.status(alice)
            #expect(aliceStatus.epoch == 1 && aliceStatus.sync.state == "ok" && aliceStatus.lastResync?.epoch == 1)

            let ciphertext = try #require(try alice.encrypt(["on fresh keys"], for: bob).first)
            #expect(try bob.decrypt([ciphertext], from: alice).lines == ["on fresh keys"])
            // Nothing left to accept; a reject says so.
            #expect(try bob.run(["resync", "alice", "--reject"]).status == 65)
        }
    }

    @Test("resync --reject drops the request and leaves the keys as they were")
    func rejectKeepsTheKeys() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let handshake = try Self.handshake(startedBy: alice).ciphertext
            try bob.expect(["decrypt", "alice"], input: handshake + "\n")
            let rejected = try bob.expect(["resync", "alice", "--reject"])
            #expect(rejected.stdout.contains("rejected"))
            let after = try Self.status(bob)
            #expect(after.sync.state == "ok" && after.epoch == 0)
            let ciphertext = try #require(try alice.encrypt(["old keys still work"], for: bob).first)
            #expect(try bob.decrypt([ciphertext], from: alice).lines == ["old keys still work"])
        }
    }

    @Test("status names a re-pairing in progress, as contact list does")
    func statusShowsRePairing() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            let line = { try alice.expect(["status"]).lines.first { $0.hasPrefix("  bob:") } ?? "" }
            #expect(try !line().contains("re-pairing"))
            try alice.expect(["resync", "bob", "--manual"])
            let pending = try line()
            #expect(pending.contains("re-pairing pending"), "\(pending)")
        }
    }

    @Test("resync --manual before pairing replaces a lost code: the new one pairs, and it says no session is kept")
    func lostCodeBeforePairing() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let bob = try Peer.create("bob", in: root)
            _ = try alice.add(bob)  // this code is lost before alice gives it to bob
            let bobCode = try bob.add(alice)
            let replaced = try alice.expect(["resync", "bob", "--manual"])
            #expect(replaced.stdout.contains("replaces the code shown before"), "\(replaced.stdout)")
            #expect(!replaced.stdout.contains("current session"), "\(replaced.stdout)")
            let aliceCode = try #require(replaced.lines.first)
            #expect(try alice.pair(bob, code: bobCode) == (try bob.pair(alice, code: aliceCode)))
        }
    }
}
