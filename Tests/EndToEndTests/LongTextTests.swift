import Foundation
import TestSupport
import Testing

/// Texts longer than one SMS (docs/PROTOCOL.md §8) through the real binary: by copy and paste in
/// any order and over several calls, and between two daemons on the simulated network.
@Suite("Long texts end to end", .serialized, .blockingOffPool)
struct LongTextTests {
    /// 313 septets with the euro sign (two septets) across the boundary of parts 1 and 2: 3 SMS.
    static let text =
        String(repeating: "x", count: 135) + "€ and the rest of a report that goes on. "
        + String(repeating: "More lines of the field report follow here. ", count: 3) + "End."

    @Test("encrypt prints one line per part; decrypt puts them together in any order, across calls")
    func copyAndPaste() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let sealed = try alice.expect(["encrypt", "bob"], input: Self.text)
            #expect(sealed.lines.count == 3 && sealed.lines.allSatisfy { $0.count == 160 })
            #expect(sealed.stderr.contains("takes 3 SMS"))

            // Parts 3 and 1 pasted together: kept, each output line empty, stderr counts them.
            let first = try bob.run(["decrypt", "alice", "--lines"], input: sealed.lines[2] + "\n" + sealed.lines[0] + "\n")
            #expect(first.status == 0 && first.lines.allSatisfy(\.isEmpty), "decrypt printed \(first.stdout)")
            #expect(first.stderr.contains("1 of 3 received") && first.stderr.contains("2 of 3 received"))
            // Part 2, later, alone: the whole text.
            let last = try bob.expect(["decrypt", "alice"], input: sealed.lines[1])
            #expect(last.stdout.trimmingCharacters(in: .newlines) == Self.text)
            // A part pasted again is a duplicate, and changes nothing.
            #expect(try bob.run(["decrypt", "alice"], input: sealed.lines[0]).status == 65)

            let log = try bob.expect(["log", "--json"]).lines.compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(log.filter { $0["status"] as? String == "part" }.count == 3)
            #expect(log.filter { $0["status"] as? String == "decrypted" }.compactMap { $0["text"] as? String } == [Self.text])

            let json = try alice.expect(["encrypt", "bob", "--json"], input: Self.text)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(object?["parts"] as? Int == 3 && (object?["ciphertexts"] as? [String])?.count == 3)
            #expect(try alice.run(["encrypt", "bob", "--max-parts", "2"], input: Self.text).status == 65)
        }
    }

    @Test("a long text sent by one daemon arrives whole at the other; send says what it costs")
    func betweenDaemons() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try await rig.startBoth()
            let queued = try rig.alice.expect(["send", "bob", "--json"], input: Self.text)
            #expect(queued.stderr.contains("the text takes 3 SMS (313 septets)"), "send said \(queued.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(queued.stdout.utf8)) as? [String: Any]
            #expect(object?["parts"] as? Int == 3)
            try await GatewayRig.wait("the long text to arrive whole", timeout: 120) {
                try rig.log(rig.bob).contains { $0.status == "decrypted" && $0.text == Self.text }
            }
            #expect(try rig.log(rig.bob).filter { $0.status == "part" }.count == 3)
            try await GatewayRig.wait("alice's message to be sent", timeout: 60) {
                try rig.log(rig.alice).contains {
                    $0.direction == "out" && $0.text == Self.text && ["sent", "delivered"].contains($0.status)
                }
            }
            try await rig.stopBoth()
        }
    }
}
