import Foundation
import Testing

@testable import SMSCipher

/// The reference to the peer's fresh value when many messages cross (docs/PROTOCOL.md §4.3): the
/// 6 bits resolve in the window from the peer's last reference and in this side's newest 64.
@Suite("References across long one-way runs")
struct ReferenceTests {
    @Test("Messages sealed before anything was received open after the other side sent 100")
    func crossingBursts() throws {
        var pair = Pair(seed: 7)
        // Both queue 100 at once, as two gateways with a backlog do; neither has received anything.
        let toBob = try (0..<100).map { try pair.aliceSeals("to bob \($0)") }
        let toAlice = try (0..<100).map { try pair.bobSeals("to alice \($0)") }
        for (index, ciphertext) in toAlice.enumerated() { #expect(try pair.aliceOpens(ciphertext) == "to alice \(index)") }
        for (index, ciphertext) in toBob.enumerated() { #expect(try pair.bobOpens(ciphertext) == "to bob \(index)") }
        // And the conversation goes on with fresh references.
        #expect(try pair.aliceOpens(pair.bobSeals("after")) == "after")
        #expect(try pair.bobOpens(pair.aliceSeals("and back")) == "and back")
    }

    @Test("A reply that lags behind 100 sent messages, or that has caught up, opens; the floor moves on")
    func laggingAndCaughtUpReplies() throws {
        var pair = Pair(seed: 8)
        let first = try (0..<100).map { try pair.aliceSeals("a \($0)") }
        // Bob has read the first 10 when he answers: reference 10, far behind alice's newest 64.
        for ciphertext in first.prefix(10) { _ = try pair.bobOpens(ciphertext) }
        #expect(try pair.aliceOpens(pair.bobSeals("read 10")) == "read 10")
        // Alice sends 200 more; bob has now read 40 of the first batch (reference 40, floor 10).
        let second = try (0..<200).map { try pair.aliceSeals("b \($0)") }
        for ciphertext in first[10..<40] { _ = try pair.bobOpens(ciphertext) }
        #expect(try pair.aliceOpens(pair.bobSeals("read 40")) == "read 40")
        // Bob catches up with everything: reference 300, among alice's newest.
        for ciphertext in first[40...] + second { _ = try pair.bobOpens(ciphertext) }
        #expect(try pair.aliceOpens(pair.bobSeals("read all")) == "read all")
        // The values below the floor are gone, so the table stays small.
        #expect(pair.alice.send.fresh.first == 300)
        #expect(pair.alice.send.fresh.values.count == 1)
    }

    @Test("A reference in neither window fails verification and changes nothing")
    func referenceInTheGapFails() throws {
        var pair = Pair(seed: 9)
        let sent = try (0..<200).map { try pair.aliceSeals("a \($0)") }
        // Bob read 100 and answers with reference 100; alice has heard nothing (floor 0) and sent 200:
        // 100 lies beyond 0…63 and before 137…200.
        for ciphertext in sent.prefix(100) { _ = try pair.bobOpens(ciphertext) }
        let reply = try pair.bobSeals("in the gap")
        let before = pair.alice
        #expect(throws: CipherError.self) { try pair.aliceOpens(reply) }
        #expect(pair.alice == before)
    }

    @Test("A late message opens with the floor its skipped key remembers")
    func lateArrivalBelowTheFloor() throws {
        var pair = Pair(seed: 10)
        let sent = try (0..<150).map { try pair.aliceSeals("a \($0)") }
        for ciphertext in sent.prefix(5) { _ = try pair.bobOpens(ciphertext) }
        let early = try pair.bobSeals("reference 5")  // lost for now
        for ciphertext in sent[5..<120] { _ = try pair.bobOpens(ciphertext) }
        let later = try pair.bobSeals("reference 120")
        // Alice gets the later one first: floor 120, and "reference 5" becomes a skipped position
        // that remembers floor 0.
        #expect(try pair.aliceOpens(later) == "reference 120")
        #expect(try pair.aliceOpens(early) == "reference 5")
    }

    @Test("A long one-way run keeps at most 1,024 values, and the initial and newest references still open")
    func retentionIsBounded() throws {
        var pair = Pair(seed: 11)
        let unanswered = try pair.bobSeals("sealed before anything arrived")
        var sent: [String] = []
        for index in 0..<1_500 { sent.append(try pair.aliceSeals("a \(index)")) }
        #expect(pair.alice.send.fresh.values.count == ProtocolConstants.freshRetention)
        // The state stays small enough to store, and reads back equal.
        let stored = pair.alice.storedForm()
        #expect(stored.count < 9_000)
        #expect(try Session(stored: stored) == pair.alice)
        #expect(try pair.aliceOpens(unanswered) == "sealed before anything arrived")
        for ciphertext in sent { _ = try pair.bobOpens(ciphertext) }
        #expect(try pair.aliceOpens(pair.bobSeals("caught up")) == "caught up")
    }

    @Test("A state written by version 1's JSON (a ring of 64 fresh values) loads and keeps working")
    func versionOneStateLoads() throws {
        var pair = Pair(seed: 12)
        let sent = try (0..<70).map { try pair.aliceSeals("a \($0)") }
        for ciphertext in sent.prefix(3) { _ = try pair.bobOpens(ciphertext) }
        let reply = try pair.bobSeals("reference 3")
        // Version 1 wrote the newest 64 values in a ring indexed by position mod 64.
        var ring = [UInt64](repeating: 0, count: 64)
        for reference in UInt32(7)...70 { ring[Int((reference - 1) % 64)] = try #require(pair.alice.send.fresh.value(of: reference)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let table = String(decoding: try encoder.encode(pair.alice.send.fresh), as: UTF8.self)
        let ringJSON =
            "{\"count\":70,\"initial\":\(pair.alice.send.fresh.initial),\"recent\":[\(ring.map(String.init).joined(separator: ","))]}"
        let current = String(decoding: try encoder.encode(pair.alice), as: UTF8.self)
        #expect(current.components(separatedBy: table).count == 2, "the send table appears once")
        let legacy = Data(current.replacingOccurrences(of: table, with: ringJSON).utf8)
        let loaded = try Session(stored: legacy)
        #expect(loaded.send.fresh.first == 7 && loaded.send.fresh.values == pair.alice.send.fresh.values.suffix(64))
        // Reference 3 is older than the ring kept, so the reply fails, as it did under version 1; a
        // reply from the newest 64 opens.
        pair.alice = loaded
        #expect(throws: CipherError.self) { try pair.aliceOpens(reply) }
        for ciphertext in sent[3...] { _ = try pair.bobOpens(ciphertext) }
        #expect(try pair.aliceOpens(pair.bobSeals("reference 70")) == "reference 70")
    }
}
