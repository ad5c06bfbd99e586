import Foundation
import GSM7
import SplitMix
import Testing

@testable import SMSCipher

/// Splitting long texts into parts (docs/PROTOCOL.md §8.1) and sending them through sessions.
@Suite struct LongTextTests {
    @Test func oneMessageUpTo141SeptetsThenParts() throws {
        let fits = try LongText(String(repeating: "a", count: 141), maxParts: 8)
        #expect(fits.messageCount == 1 && fits.remainingInLastMessage == 0)
        guard case .text = fits.plaintexts[0] else { throw TestFailure("a text that fits is one text message") }
        let over = try LongText(String(repeating: "a", count: 142), maxParts: 8)
        #expect(over.messageCount == 2 && over.remainingInLastMessage == 2 * TextPart.segmentCapacity - 142)
    }

    /// Every length from 142 septets to the 32-part limit splits into parts that put the text back
    /// together, none over capacity, extension characters never cut, counted as the split produces.
    /// Every length from 142 septets to the 32-part limit goes through a real round trip: split,
    /// each part sealed at its own position, opened in reverse order, put back together, with
    /// extension characters falling on part boundaries; no part over capacity, and the count the
    /// split gives is what sealing produces.
    @Test func everyLengthRoundTripsThroughSessions() throws {
        var rng = SplitMix64(seed: 12)
        var pair = Pair(seed: 21)
        for septets in 142...(TextPart.maxCount * TextPart.segmentCapacity - TextPart.maxCount) {
            let text = randomGSM7Text(septets: septets, using: &rng)
            let long = try LongText(text, maxParts: TextPart.maxCount)
            #expect(long.septetCount == septets)
            let expectedCount = (septets + TextPart.segmentCapacity - 1) / TextPart.segmentCapacity
            #expect(long.messageCount >= expectedCount && long.messageCount <= expectedCount + 1)
            var ciphertexts: [String] = []
            for plaintext in long.plaintexts {
                let sealed = try pair.alice.sealing(plaintext, using: &pair.rng)
                pair.alice = sealed.session
                ciphertexts.append(sealed.ciphertext)
            }
            var assembly = Reassembly()
            var whole: String?
            for ciphertext in ciphertexts.reversed() {
                let result = try pair.bob.opening(ciphertext, now: pair.now, using: &pair.rng)
                pair.bob = result.session
                guard case .typed(let typed) = result.opened, let part = TextPart(typed.payload) else {
                    throw TestFailure("\(septets) septets: a part did not open as a part")
                }
                #expect(part.count == long.messageCount && part.septets.count <= TextPart.segmentCapacity)
                if case .complete(let text) = assembly.add(part, position: typed.position, epoch: typed.epoch, now: pair.now).outcome {
                    whole = text.text()
                }
            }
            #expect(whole == text, "\(septets) septets")
        }
    }

    @Test func anExtensionCharacterOnABoundaryMovesWhole() throws {
        let text = String(repeating: "a", count: TextPart.segmentCapacity - 1) + "€" + String(repeating: "b", count: 10)
        let long = try LongText(text, maxParts: 8)
        let parts = long.plaintexts.compactMap { plaintext -> TextPart? in
            if case .typed(let payload) = plaintext { return TextPart(payload) }
            return nil
        }
        #expect(parts.map(\.septets.count) == [TextPart.segmentCapacity - 1, 12])
        #expect(parts.last?.text == "€" + String(repeating: "b", count: 10))
    }

    @Test func moreThanTheAllowedPartsIsRefusedWithTheCapacity() {
        let text = String(repeating: "a", count: 3 * TextPart.segmentCapacity + 1)
        #expect(throws: CipherError.textTooLong(septets: text.count, capacity: LongText.capacity(parts: 3))) {
            try LongText(text, maxParts: 3)
        }
        #expect(throws: CipherError.textTooLong(septets: 142, capacity: 141)) {
            try LongText(String(repeating: "a", count: 142), maxParts: 1)
        }
    }

    /// Parts sealed at consecutive positions, delivered shuffled with one lost and re-sent and one
    /// duplicated: the receiver puts the text together exactly once.
    @Test func partsArriveInAnyOrderAndTheTextIsWholeOnce() throws {
        var pair = Pair(seed: 13)
        var rng = SplitMix64(seed: 14)
        let text = randomGSM7Text(septets: 5 * TextPart.segmentCapacity - 20, using: &rng)
        let long = try LongText(text, maxParts: 8)
        var ciphertexts: [String] = []
        for plaintext in long.plaintexts {
            let sealed = try pair.alice.sealing(plaintext, using: &pair.rng)
            pair.alice = sealed.session
            ciphertexts.append(sealed.ciphertext)
        }
        var order = Array(ciphertexts.indices).shuffled(using: &rng)
        let lost = order.removeFirst()
        order.insert(order[0], at: 2)
        order.append(lost)
        var assembly = Reassembly()
        var completed: [String] = []
        for index in order {
            let result: OpenResult
            do {
                result = try pair.bob.opening(ciphertexts[index], now: pair.now, using: &pair.rng)
            } catch .duplicate {
                continue
            }
            pair.bob = result.session
            guard case .typed(let typed) = result.opened, let part = TextPart(typed.payload) else { throw TestFailure("not a part") }
            if case .complete(let whole) = assembly.add(part, position: typed.position, epoch: typed.epoch, now: pair.now).outcome {
                completed.append(whole.text())
            }
        }
        #expect(completed == [text])
        #expect(assembly.pending.isEmpty)
    }
}
