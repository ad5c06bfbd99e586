import Foundation
import TestSupport
import Testing

/// One id per message, and `log --follow` showing each change of a message's status.
@Suite("Message ids and the log's change feed", .serialized, .blockingOffPool)
struct MessageIdTests {
    private func objects(_ result: RunResult) throws -> [[String: Any]] {
        try result.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test("The id send prints is the one log, log --json, status and status --json show; resync prints its log id; log narrows by state")
    func oneIdPerMessage() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            let id = try #require(Int64(try alice.expect(["send", "bob"], input: "which id?\n").lines.first ?? ""))

            let plain = try #require(try alice.expect(["log"]).lines.last)
            #expect(plain.hasPrefix("\(id)\t") && plain.hasSuffix("\tout\tbob\tqueued\twhich id?"), "\(plain)")
            let json = try #require(try objects(alice.expect(["log", "--json"])).last)
            #expect(jsonInteger(json["id"]) == id && jsonInteger(json["seq"]) != nil)
            #expect(try alice.expect(["status"]).stdout.contains("  message \(id) to bob: queued"))
            let status = try JSONSerialization.jsonObject(with: Data(alice.expect(["status", "--json"]).stdout.utf8)) as? [String: Any]
            let queue = try #require(status?["queue"] as? [[String: Any]])
            #expect(queue.count == 1 && jsonInteger(queue[0]["id"]) == id && queue[0]["state"] as? String == "queued")

            let resync = try #require(try objects(alice.expect(["resync", "bob", "--json"])).first)
            let resyncID = try #require(jsonInteger(resync["id"]))
            #expect(resync["contact"] as? String == "bob" && resync["outboxId"] == nil)
            let logged = try objects(alice.expect(["log", "--json"])).first { jsonInteger($0["id"]) == resyncID }
            #expect(logged?["status"] as? String == "resync")

            // Narrowed by status and direction; an unknown status is a usage error listing them.
            #expect(try alice.expect(["log", "--state", "queued"]).lines.map { $0.hasPrefix("\(id)\t") } == [true])
            #expect(try objects(alice.expect(["log", "--state", "resync", "--json"])).map { jsonInteger($0["id"]) } == [resyncID])
            #expect(try alice.expect(["log", "--direction", "in"]).lines.isEmpty)
            let unknown = try alice.run(["log", "--state", "lost"])
            #expect(unknown.status == 64 && unknown.stderr.contains("queued") && unknown.stderr.contains("resynced"), "\(unknown.stderr)")
        }
    }

    @Test("log --follow shows queued, sent, delivered for the id send printed; --since resumes without a gap or a repeat")
    func followAndResume() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try await rig.startBoth()
            // A follower lists the newest messages, then follows from that listing: once it has
            // printed this one it follows, however late its process started.
            let listed = try rig.send("listed", from: rig.alice, to: rig.bob)
            let follower = try RunningCommand(["log", "--follow", "--json"], as: rig.alice)
            let plainFollower = try RunningCommand(["log", "-f", "--contact", "bob"], as: rig.alice)
            try await GatewayRig.wait("both followers to list message \(listed)", timeout: 90) {
                follower.objects.contains { jsonInteger($0["id"]) == listed }
                    && plainFollower.lines.contains { $0.hasPrefix("\(listed)\t") }
            }
            let first = try rig.send("followed", from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("the follower to see message \(first) delivered", timeout: 90) {
                follower.objects.contains { jsonInteger($0["id"]) == first && $0["status"] as? String == "delivered" }
            }
            let changes = follower.objects.filter { jsonInteger($0["id"]) == first }
            #expect(changes.map { $0["status"] as? String } == ["queued", "sent", "delivered"])
            #expect(changes.allSatisfy { $0["text"] as? String == "followed" })
            // The plain follower is a process of its own, woken by the same commits: wait for it too.
            try await GatewayRig.wait("the plain follower to see message \(first) delivered", timeout: 90) {
                plainFollower.lines.contains { $0.hasPrefix("\(first)\t") && $0.hasSuffix("\tdelivered\t") }
            }
            let plainChanges = plainFollower.lines.filter { $0.hasPrefix("\(first)\t") }
            #expect(
                plainChanges.count == 3 && plainChanges[0].hasSuffix("\tqueued\tfollowed") && plainChanges[2].hasSuffix("\tdelivered\t"))
            follower.stop()
            plainFollower.stop()
            let cursor = try #require(follower.objects.compactMap { jsonInteger($0["seq"]) }.max())

            // While nobody follows: another message goes out and arrives.
            let second = try rig.send("while away", from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("message \(second) to be delivered", timeout: 90) {
                try rig.log(rig.alice).contains { $0.id == second && $0.status == "delivered" }
            }
            let missed = try objects(rig.alice.expect(["log", "--json", "--since", "\(cursor)"]))
            let seqs = missed.compactMap { jsonInteger($0["seq"]) }
            #expect(seqs.allSatisfy { $0 > cursor } && seqs == seqs.sorted() && Set(seqs).count == seqs.count)
            #expect(missed.filter { jsonInteger($0["id"]) == second }.map { $0["status"] as? String } == ["queued", "sent", "delivered"])
            #expect(!missed.contains { jsonInteger($0["id"]) == first }, "a change already seen came again")

            // Following again from the cursor prints the missed changes at once, then goes on.
            let resumed = try RunningCommand(["log", "--follow", "--json", "--since", "\(cursor)"], as: rig.alice)
            try await GatewayRig.wait("the resumed follower to catch up", timeout: 30) { resumed.objects.count >= missed.count }
            #expect(resumed.objects.compactMap { jsonInteger($0["seq"]) }.prefix(missed.count).elementsEqual(seqs))
            try rig.send("after resuming", from: rig.bob, to: rig.alice)
            try await GatewayRig.wait("the resumed follower to show bob's message decrypted", timeout: 90) {
                resumed.objects.contains { $0["status"] as? String == "decrypted" && $0["text"] as? String == "after resuming" }
            }
            resumed.stop()
            try await rig.stopBoth()
        }
    }

    @Test("log show ID prints the message and each status it took; --json adds history; an unknown id exits 66")
    func showOneMessage() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            let id = try #require(Int64(try alice.expect(["send", "bob"], input: "shown\n").lines.first ?? ""))
            let shown = try alice.expect(["log", "show", "\(id)"])
            #expect(shown.lines.first == (try alice.expect(["log"]).lines.last), "\(shown.stdout)")
            #expect(shown.lines.count == 2 && shown.lines[1].hasSuffix("\tqueued"), "\(shown.stdout)")
            let json = try #require(try objects(alice.expect(["log", "show", "\(id)", "--json"])).first)
            let history = try #require(json["history"] as? [[String: Any]])
            #expect(jsonInteger(json["id"]) == id && json["text"] as? String == "shown")
            #expect(
                history.count == 1 && history[0]["status"] as? String == "queued"
                    && jsonInteger(history[0]["seq"]) == jsonInteger(json["seq"]))
            let missing = try alice.run(["log", "show", "\(id + 1000)"])
            #expect(missing.status == 66 && missing.stderr.contains("No message has id"), "\(missing.stderr)")
        }
    }
}
