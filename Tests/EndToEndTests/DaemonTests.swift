import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smsgw serve`, `send`, `status`, `log` and `resync` against `smsgw sim`, run as a user would:
/// two daemons, each driving one simulated modem through libgammu.
@Suite("Gateway daemon end to end", .serialized)
struct DaemonTests {
    @Test("100 messages each way decrypt and are delivered; then under 10% loss, 5% duplication and delay each arrival decrypts once")
    func exchangeAndFaults() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try await rig.startBoth()

            // (1) A clean network: everything decrypts on the other side and is delivered.
            let clean = try sendBothWays(rig, label: "clean", count: 100)
            try await GatewayRig.wait("the 200 clean messages to be decrypted and delivered", timeout: 300) {
                try arrived(clean, in: rig, requireDelivery: true)
            }
            for peer in [rig.alice, rig.bob] {
                let status = try rig.status(peer)
                #expect(status.contacts.allSatisfy { $0.sync.state == "ok" })
                #expect(status.outbox["queued"] == 0)
            }

            // (2) Loss, duplication and reordering: what arrives decrypts exactly once.
            try rig.control("drop", "0.1")
            try rig.control("duplicate", "0.05")
            try rig.control("delay", "0", "2")
            let lossy = try sendBothWays(rig, label: "lossy", count: 20)
            try await GatewayRig.wait("the lossy batch to leave both outboxes", timeout: 90) {
                try [rig.alice, rig.bob].allSatisfy { try rig.log($0).allSatisfy { $0.status != "queued" } }
            }
            try await Task.sleep(for: .seconds(5))  // the longest delay, a poll and a notification
            var received = 0
            for (sender, receiver, texts) in lossy.directions(rig) {
                let incoming = try rig.log(receiver).filter { $0.direction == "in" }
                #expect(!incoming.contains { $0.status == "rejected" }, "a ciphertext from \(sender.name) was refused")
                for text in texts {
                    let copies = incoming.filter { $0.status == "decrypted" && $0.text == text }.count
                    #expect(copies <= 1, "\"\(text)\" decrypted \(copies) times")
                    received += copies
                }
                // A repeated SMS is logged as a duplicate, never decrypted a second time.
                let decryptedCiphertexts = incoming.filter { $0.status == "decrypted" }.compactMap(\.ciphertext)
                #expect(Set(decryptedCiphertexts).count == decryptedCiphertexts.count)
                for duplicate in incoming where duplicate.status == "duplicate" {
                    #expect(duplicate.text == nil || texts.contains(duplicate.text!) || clean.all.contains(duplicate.text!))
                }
            }
            print("DaemonTests: \(received) of 40 SMS arrived under 10% loss")
            #expect(received >= 24, "only \(received) of 40 arrived at 10% loss")

            try await rig.stopBoth()
        }
    }

    @Test("kill -9 while sending 20 queued messages: after a restart each arrives exactly once, no pad reused")
    func killDuringSend() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try await rig.startBoth()
            let texts = (1...20).map { "queued \($0) before the crash" }
            for text in texts { try rig.send(text, from: rig.alice, to: rig.bob) }
            // Kill alice's daemon once bob has some of them but not all (libgammu sends ~1 SMS/s).
            try await GatewayRig.wait("bob to receive the first messages", timeout: 60) {
                try rig.log(rig.bob).filter { $0.direction == "in" && $0.status == "decrypted" }.count >= 3
            }
            #expect(try await rig.stopDaemon(rig.alice, signal: SIGKILL) == SIGKILL)
            let before = try rig.log(rig.bob).filter { $0.status == "decrypted" }.count
            #expect(before < texts.count, "every message arrived before the kill; nothing was in flight")

            try rig.startDaemon(rig.alice)
            try await GatewayRig.wait("all 20 to arrive after the restart", timeout: 90) {
                let incoming = try rig.log(rig.bob).filter { $0.status == "decrypted" }
                return texts.allSatisfy { text in incoming.contains { $0.text == text } }
            }
            let incoming = try rig.log(rig.bob).filter { $0.direction == "in" }
            for text in texts {
                #expect(incoming.filter { $0.status == "decrypted" && $0.text == text }.count == 1, "\"\(text)\"")
            }
            #expect(!incoming.contains { $0.status == "rejected" }, "bob refused a ciphertext as not authentic")
            let sent = try rig.log(rig.alice).filter { $0.direction == "out" }
            let ciphertexts = sent.compactMap(\.ciphertext)
            #expect(ciphertexts.count == texts.count && Set(ciphertexts).count == ciphertexts.count)

            try await rig.stopBoth()
        }
    }

    @Test("smsgw resync runs the handshake over SMS; both sides move to epoch 1 and messages flow")
    func resyncOverSMS() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try await rig.startBoth()
            try rig.send("before the resync", from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("the first message", timeout: 60) {
                try rig.log(rig.bob).contains { $0.status == "decrypted" && $0.text == "before the resync" }
            }

            let started = try rig.alice.expect(["resync", "bob"])
            #expect(Int64(started.lines.first ?? "") != nil, "resync printed \(started.stdout)")
            let code = try #require(started.stdout.firstMatch(of: /code (\d{3} \d{3})/)?.1, "no code in \(started.stdout)")
            // Bob's gateway keeps alice's request, with the same code, until his operator accepts.
            try await GatewayRig.wait("bob's gateway to show alice's request", timeout: 60) {
                try rig.status(rig.bob).contacts.first?.sync.state == "resync requested"
            }
            let request = try #require(try rig.status(rig.bob).contacts.first)
            #expect(
                request.epoch == 0 && request.sync.action == "acceptOrRejectResync" && request.sync.resyncCode == String(code),
                "sync: \(request.sync)")
            #expect(
                request.sync.advice?.contains("code \(code)") == true && request.sync.advice?.contains("smsgw") == false,
                "advice: \(request.sync.advice ?? "none")")
            let accepted = try rig.bob.expect(["resync", "alice", "--accept"])
            #expect(accepted.stdout.contains("accepted"), "resync --accept printed \(accepted.stdout)")
            try await GatewayRig.wait("both sides to reach epoch 1", timeout: 60) {
                try [rig.alice, rig.bob].allSatisfy { peer in
                    try rig.status(peer).contacts.allSatisfy { $0.epoch == 1 && $0.sync.state == "ok" && $0.lastResync?.epoch == 1 }
                }
            }
            #expect(try rig.log(rig.alice).contains { $0.direction == "in" && $0.status == "resynced" })
            #expect(try rig.log(rig.bob).contains { $0.direction == "out" && $0.status == "resynced" })
            try await rig.exchange("after the resync")

            try await rig.stopBoth()
        }
    }

    @Test("a desync forced by restoring an old store is repaired by smsgw resync; messages flow again")
    func resyncAfterRestoredStore() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            // Alice's store before anything was sent: restoring it later rewinds her chains, as a
            // restored backup would.
            let backup = root.appendingPathComponent("alice-backup")
            try rig.backUpStore(of: rig.alice, to: backup)
            try await rig.startBoth()
            let before = (1...3).map { "before the restore \($0)" }
            for text in before { try rig.send(text, from: rig.alice, to: rig.bob) }
            try await GatewayRig.wait("bob to decrypt the first 3 messages", timeout: 90) {
                let incoming = try rig.log(rig.bob).filter { $0.direction == "in" && $0.status == "decrypted" }
                return before.allSatisfy { text in incoming.contains { $0.text == text } }
            }

            #expect(try await rig.stopDaemon(rig.alice) == 0)
            // The stop folded the write-ahead log into the database file, so a copy of that file
            // alone would have been complete.
            #expect(try rig.writeAheadLogSize(of: rig.alice) == 0)
            try rig.restoreStore(of: rig.alice, from: backup)
            // Alice's gateway answers a resync by itself (the configuration switch).
            try rig.startDaemon(rig.alice, environment: ["SMSGW_RESYNC_ACCEPT": "auto"])
            try await GatewayRig.wait("alice's modem to be ready again", timeout: 60) { try rig.status(rig.alice).modemReady }
            #expect(try !rig.log(rig.alice).contains { before.contains($0.text ?? "") }, "the restore did not rewind alice's store")

            // Alice seals on positions bob has already used up: he cannot verify them.
            let desynced = (1...3).map { "desynced \($0)" }
            for text in desynced { try rig.send(text, from: rig.alice, to: rig.bob) }
            try await GatewayRig.wait("bob to refuse the 3 desynced messages", timeout: 90) {
                try rig.log(rig.bob).filter { $0.direction == "in" && ["rejected", "duplicate"].contains($0.status) }.count >= 3
            }
            let incoming = try rig.log(rig.bob).filter { $0.direction == "in" }
            #expect(incoming.filter { $0.status == "rejected" }.count == 3)
            #expect(!incoming.contains { $0.text.map(desynced.contains) == true }, "bob decrypted a desynced message")
            let failing = try #require(try rig.status(rig.bob).contacts.first { $0.name == "alice" })
            #expect(failing.sync.state == "failing")
            #expect(failing.sync.action == "resync" && failing.sync.resyncCode == nil, "sync: \(failing.sync)")
            #expect(
                failing.sync.advice?.contains("start a resync") == true && failing.sync.advice?.contains("smsgw") == false,
                "advice: \(failing.sync.advice ?? "none")")
            let text = try rig.bob.expect(["status"])
            #expect(text.stdout.contains("run `smsgw resync alice`"), "\(text.stdout)")
            #expect(failing.quarantined == 3)

            // Bob's operator runs `smsgw resync alice`; alice's daemon answers by itself (auto).
            let started = try rig.bob.expect(["resync", "alice"])
            #expect(Int64(started.lines.first ?? "") != nil, "resync printed \(started.stdout)")
            try await GatewayRig.wait("both sides to reach epoch 1 in sync", timeout: 90) {
                try [rig.alice, rig.bob].allSatisfy { peer in
                    try rig.status(peer).contacts.allSatisfy { $0.epoch == 1 && $0.sync.state == "ok" }
                }
            }
            for peer in [rig.alice, rig.bob] {
                let resyncs = try rig.log(peer).filter { $0.direction == "in" && $0.status == "resynced" }
                #expect(resyncs.count == 1, "\(peer.name) logged \(resyncs.count) completed resyncs")
            }
            #expect(try rig.log(rig.alice).contains { $0.status == "resynced" && $0.text?.contains("answered automatically") == true })
            #expect(try rig.log(rig.bob).contains { $0.direction == "out" && $0.status == "resync" })
            // The desynced messages were sealed on keys nobody has any more: after the resync they
            // leave the quarantine, and their log rows say to ask for them again.
            try await GatewayRig.wait("bob's quarantine to be settled", timeout: 30) {
                try rig.status(rig.bob).contacts.first { $0.name == "alice" }?.quarantined == 0
            }
            let givenUp = try rig.log(rig.bob).filter { $0.direction == "in" && $0.status == "rejected" }
            #expect(givenUp.count == 3 && givenUp.allSatisfy { $0.error?.contains("send it again") == true })

            try await rig.exchange("after the repair")

            try await rig.stopBoth()
        }
    }

    @Test("a hung modem and an unplugged modem recover under the daemon and the queue drains, the same ciphertexts resent")
    func hungAndUnpluggedModemsRecover() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            let aliceNumber = GatewayRig.numbers[0]
            // A short call timeout through the environment, so the hang is noticed quickly.
            try rig.startDaemon(rig.alice, environment: ["SMSGW_MODEM_1_CALL_TIMEOUT_SECONDS": "6"])
            try rig.startDaemon(rig.bob)
            for peer in [rig.alice, rig.bob] {
                try await GatewayRig.wait("\(peer.name)'s modem to be ready", timeout: 60) { try rig.status(peer).modemReady }
            }

            // Hung: calls time out, the supervisor climbs its ladder; the queue waits, then drains.
            try rig.control("hang", aliceNumber, "on")
            let hung = (1...3).map { "while hung \($0)" }
            try rig.send(lines: hung, from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("alice's daemon to notice the hang", timeout: 60) { try !rig.status(rig.alice).modemReady }
            try rig.control("hang", aliceNumber, "off")
            try await GatewayRig.wait("the messages queued while hung to arrive", timeout: 120) {
                let decrypted = try rig.log(rig.bob).filter { $0.direction == "in" && $0.status == "decrypted" }
                return hung.allSatisfy { text in decrypted.contains { $0.text == text } }
            }
            // Whatever was resent was the stored ciphertext: bob decrypted each text once.
            let incoming = try rig.log(rig.bob).filter { $0.direction == "in" && $0.status == "decrypted" }
            #expect(incoming.count == hung.count)

            // Unplugged: the daemon waits for the device and reopens it when it is back.
            try await GatewayRig.wait("alice's modem to be ready again", timeout: 60) { try rig.status(rig.alice).modemReady }
            try rig.control("unplug", aliceNumber)
            try await GatewayRig.wait("alice's daemon to notice the unplugged modem", timeout: 60) { try !rig.status(rig.alice).modemReady }
            try rig.send("while unplugged", from: rig.alice, to: rig.bob)
            try rig.send("to the unplugged side", from: rig.bob, to: rig.alice)
            try await Task.sleep(for: .seconds(2))
            try rig.control("replug", aliceNumber)
            try await GatewayRig.wait("both messages to arrive after the replug", timeout: 120) {
                try rig.log(rig.bob).contains { $0.status == "decrypted" && $0.text == "while unplugged" }
                    && rig.log(rig.alice).contains { $0.status == "decrypted" && $0.text == "to the unplugged side" }
            }
            let status = try rig.status(rig.alice)
            #expect(status.modemReady)
            #expect(status.outbox["queued"] == 0)

            try await rig.stopBoth()
        }
    }

    /// The texts of one batch, by direction.
    struct Batch {
        var toBob: [String]
        var toAlice: [String]
        var all: [String] { toBob + toAlice }

        func directions(_ rig: GatewayRig) -> [(Peer, Peer, [String])] {
            [(rig.alice, rig.bob, toBob), (rig.bob, rig.alice, toAlice)]
        }
    }

    /// Queues `count` messages each way with `smsgw send`, interleaved.
    private func sendBothWays(_ rig: GatewayRig, label: String, count: Int) throws -> Batch {
        let batch = Batch(
            toBob: (1...count).map { "\(label) \($0) from alice" },
            toAlice: (1...count).map { "\(label) \($0) from bob" })
        try rig.send(lines: batch.toBob, from: rig.alice, to: rig.bob)
        try rig.send(lines: batch.toAlice, from: rig.bob, to: rig.alice)
        return batch
    }

    /// Whether every text of the batch was decrypted by its receiver (and, if asked, delivered).
    private func arrived(_ batch: Batch, in rig: GatewayRig, requireDelivery: Bool) throws -> Bool {
        for (sender, receiver, texts) in batch.directions(rig) {
            let incoming = try rig.log(receiver).filter { $0.direction == "in" && $0.status == "decrypted" }
            guard texts.allSatisfy({ text in incoming.contains { $0.text == text } }) else { return false }
            if requireDelivery {
                let outgoing = try rig.log(sender).filter { $0.direction == "out" }
                guard texts.allSatisfy({ text in outgoing.contains { $0.text == text && $0.status == "delivered" } })
                else { return false }
            }
        }
        return true
    }
}
