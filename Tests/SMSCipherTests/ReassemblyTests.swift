import Foundation
import Testing

@testable import SMSCipher

/// The receiver's reassembly (docs/PROTOCOL.md §8.2): whole texts once, gaps marked, hostile parts bounded.
@Suite struct ReassemblyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func part(_ index: Int, of count: Int, _ text: String = "x") -> TextPart {
        TextPart(index: index, count: count, septets: Array(text.utf8))!
    }

    @Test func aTextIsWholeWhenItsLastPartArrives() {
        var assembly = Reassembly()
        #expect(assembly.add(part(3, of: 3, "c"), position: 12, epoch: 0, now: now).outcome == .waiting(received: 1, count: 3))
        #expect(assembly.add(part(1, of: 3, "a"), position: 10, epoch: 0, now: now).outcome == .waiting(received: 2, count: 3))
        #expect(assembly.add(part(1, of: 3, "a"), position: 10, epoch: 0, now: now).outcome == .duplicate)
        let last = assembly.add(part(2, of: 3, "b"), position: 11, epoch: 0, now: now).outcome
        #expect(last == .complete(AssembledText(epoch: 0, first: 10, segments: ["a", "b", "c"])))
        #expect(assembly.pending.isEmpty)
        #expect(assembly.add(part(2, of: 3, "b"), position: 11, epoch: 0, now: now).outcome == .duplicate)
    }

    @Test func anIncompleteTextIsHandedOutWithGapsAfterItsTimeAndLatePartsFollowAlone() {
        var assembly = Reassembly()
        _ = assembly.add(part(1, of: 3, "a"), position: 0, epoch: 0, now: now)
        #expect(assembly.release(startedBefore: now).isEmpty)
        let released = assembly.release(startedBefore: now.addingTimeInterval(1))
        #expect(released.count == 1 && released[0].missing == [2, 3])
        #expect(released[0].text() == "a[part 2 of 3 missing][part 3 of 3 missing]")
        #expect(assembly.add(part(3, of: 3, "c"), position: 2, epoch: 0, now: now).outcome == .late(part(3, of: 3, "c"), first: 0))
        #expect(assembly.add(part(3, of: 3, "c"), position: 2, epoch: 0, now: now).outcome == .duplicate)
        #expect(assembly.add(part(1, of: 3, "a"), position: 0, epoch: 0, now: now).outcome == .duplicate)
    }

    @Test func hostilePartsAreRefused() {
        var assembly = Reassembly()
        #expect(assembly.add(part(5, of: 5), position: 3, epoch: 0, now: now).outcome == .rejected(.beforeFirstPosition))
        _ = assembly.add(part(1, of: 3), position: 100, epoch: 0, now: now)
        #expect(assembly.add(part(2, of: 4), position: 101, epoch: 0, now: now).outcome == .rejected(.countMismatch(kept: 3, claimed: 4)))
        #expect(assembly.add(part(1, of: 2), position: 101, epoch: 0, now: now).outcome == .rejected(.overlapsAnotherText))
        #expect(assembly.add(part(1, of: 2), position: 101, epoch: 1, now: now).outcome == .waiting(received: 1, count: 2))
        #expect(TextPart(index: 0, count: 3, septets: [0x41]) == nil)
        #expect(TextPart(index: 4, count: 3, septets: [0x41]) == nil)
        #expect(TextPart(index: 1, count: 33, septets: [0x41]) == nil)
        #expect(TextPart(index: 1, count: 1, septets: [0x41]) == nil)
        #expect(TextPart(index: 1, count: 2, septets: [0x41, 0x1B]) == nil)
        #expect(TextPart(index: 1, count: 2, septets: []) == nil)
    }

    /// A flood of first parts never keeps more than four texts: the oldest is handed out, gaps marked.
    @Test func aFloodOfFirstPartsStaysBounded() {
        var assembly = Reassembly()
        var released: [AssembledText] = []
        for text in 0..<1000 {
            let position = UInt32(text * TextPart.maxCount)
            let result = assembly.add(
                part(1, of: TextPart.maxCount), position: position, epoch: 0, now: now.addingTimeInterval(Double(text)))
            released += result.released
            #expect(assembly.pending.count <= Reassembly.maxPendingTexts)
            #expect(assembly.handedOut.count <= Reassembly.rememberedTexts)
        }
        #expect(released.count == 1000 - Reassembly.maxPendingTexts)
        #expect(released.first?.first == 0 && released.allSatisfy { $0.missing.count == TextPart.maxCount - 1 })
    }

    @Test func theStateSurvivesItsStoredForm() throws {
        var assembly = Reassembly()
        _ = assembly.add(part(2, of: 4, "b"), position: 7, epoch: 2, now: now)
        _ = assembly.add(part(1, of: 2, "z"), position: 40, epoch: 2, now: now)
        _ = assembly.release(startedBefore: now.addingTimeInterval(1)).count
        _ = assembly.add(part(1, of: 3, "q"), position: 60, epoch: 2, now: now)
        let decoded = try JSONDecoder().decode(Reassembly.self, from: JSONEncoder().encode(assembly))
        #expect(decoded == assembly)
    }
}
