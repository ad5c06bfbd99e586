import Foundation
import SplitMix
import Testing

@testable import SMSCipher

@Suite struct WindowTests {
    @Test(arguments: [1, 2, 7, 31, ProtocolConstants.window - 1])
    func lossOfMessagesThenDelivery(lost: Int) throws {
        var pair = Pair(seed: UInt64(lost))
        for index in 0..<lost { _ = try pair.aliceSeals("lost \(index)") }
        #expect(try pair.bobOpens(pair.aliceSeals("arrives")) == "arrives")
        #expect(pair.bob.skippedKeyCount == lost)
        // The conversation goes on in both directions.
        #expect(try pair.aliceOpens(pair.bobSeals("reply")) == "reply")
        #expect(try pair.bobOpens(pair.aliceSeals("next")) == "next")
    }

    @Test func reorderingInsideTheWindowAndLateArrival() throws {
        var rng = SplitMix64.replayable()
        var pair = Pair(seed: rng.next())
        let texts = (0..<40).map { "message \($0)" }
        var ciphertexts = try texts.map { try pair.aliceSeals($0) }
        var order = Array(ciphertexts.indices)
        order.shuffle(using: &rng)
        var received: [String] = []
        for index in order { received.append(try pair.bobOpens(ciphertexts[index])) }
        #expect(received.sorted() == texts.sorted())
        #expect(pair.bob.skippedKeyCount == 0)
        ciphertexts.removeAll()
    }

    @Test func lateArrivalUsesTheSkippedKeyOnce() throws {
        var pair = Pair()
        let first = try pair.aliceSeals("first")
        let second = try pair.aliceSeals("second")
        #expect(try pair.bobOpens(second) == "second")
        let result = try pair.bob.opening(first, now: pair.now, using: &pair.rng)
        guard case .message(let message) = result.opened else {
            Issue.record("not a message")
            return
        }
        #expect(message.text == "first" && message.wasLate && message.position == 0)
        pair.bob = result.session
        #expect(pair.bob.skippedKeyCount == 0)
        #expect(throws: CipherError.duplicate) { try pair.bobOpens(first) }
    }

    @Test func beyondTheWindowIsAClearErrorThatChangesNothing() throws {
        var pair = Pair()
        for _ in 0..<ProtocolConstants.window { _ = try pair.aliceSeals("lost") }
        let far = try pair.aliceSeals("too far")
        let before = pair.bob
        #expect(throws: CipherError.beyondWindow(ahead: ProtocolConstants.window)) { try pair.bobOpens(far) }
        #expect(pair.bob == before)
        #expect(CipherError.beyondWindow(ahead: 64).description.contains("resync"))
    }

    @Test func skippedKeysAreBoundedInCountAndAge() throws {
        var pair = Pair()
        // Three gaps of 40 each store 120 keys; only the newest 64 stay.
        for _ in 0..<3 {
            for _ in 0..<40 { _ = try pair.aliceSeals("gap") }
            _ = try pair.bobOpens(pair.aliceSeals("seen"))
        }
        #expect(pair.bob.skippedKeyCount == ProtocolConstants.maxSkippedKeys)
        // A week later every stored key has expired.
        let later = pair.now.addingTimeInterval(TimeInterval(ProtocolConstants.maxSkippedKeyAge + 1))
        let next = try pair.alice.sealing("later", using: &pair.rng)
        let result = try pair.bob.opening(next.ciphertext, now: later, using: &pair.rng)
        #expect(result.session.skippedKeyCount == 0)
    }

    @Test func freshReferenceSurvivesCrossingMessages() throws {
        // Alice answers an old message of Bob's while Bob's newer ones are still in flight.
        var pair = Pair()
        let fromBob = try (0..<10).map { try pair.bobSeals("bob \($0)") }
        #expect(try pair.aliceOpens(fromBob[0]) == "bob 0")
        let reply = try pair.aliceSeals("reply to 0")
        for index in 1..<10 { #expect(try pair.aliceOpens(fromBob[index]) == "bob \(index)") }
        let later = try pair.aliceSeals("reply to 9")
        #expect(try pair.bobOpens(later) == "reply to 9")
        #expect(try pair.bobOpens(reply) == "reply to 0")
    }

    @Test func longRandomConversationWithLossDuplicationAndReordering() throws {
        var rng = SplitMix64.replayable()
        var pair = Pair(seed: rng.next())
        var inFlightToBob: [(String, String)] = []
        var inFlightToAlice: [(String, String)] = []
        var delivered = 0
        for step in 0..<600 {
            if rng.next() % 2 == 0 {
                let text = "a\(step)"
                inFlightToBob.append((text, try pair.aliceSeals(text)))
            } else {
                let text = "b\(step)"
                inFlightToAlice.append((text, try pair.bobSeals(text)))
            }
            // Deliver a random message in flight: 10% are lost, 5% arrive twice.
            for toBob in [true, false] {
                var queue = toBob ? inFlightToBob : inFlightToAlice
                guard !queue.isEmpty, rng.next() % 3 != 0 else { continue }
                let (text, ciphertext) = queue.remove(at: Int(rng.next() % UInt64(min(queue.count, 5))))
                if rng.next() % 10 != 0 {
                    let opened = toBob ? try pair.bobOpens(ciphertext) : try pair.aliceOpens(ciphertext)
                    #expect(opened == text)
                    delivered += 1
                    if rng.next() % 20 == 0 {
                        #expect(throws: CipherError.duplicate) {
                            toBob ? try pair.bobOpens(ciphertext) : try pair.aliceOpens(ciphertext)
                        }
                    }
                }
                if toBob { inFlightToBob = queue } else { inFlightToAlice = queue }
            }
        }
        #expect(delivered > 300)
    }
}
