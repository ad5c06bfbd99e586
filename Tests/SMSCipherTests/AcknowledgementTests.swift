import Foundation
import SplitMix
import Testing

@testable import SMSCipher

/// Acknowledgements (docs/PROTOCOL.md §9): one typed message covers many positions.
@Suite struct AcknowledgementTests {
    @Test func randomSetsRoundTripThroughThePayload() throws {
        var rng = SplitMix64(seed: 15)
        for _ in 0..<500 {
            let first = UInt32.random(in: 0...UInt32.max - 2000, using: &rng)
            let positions = (0..<Int.random(in: 1...60, using: &rng)).map { _ in
                first + UInt32.random(in: 0..<UInt32(Acknowledgement.maxSpan), using: &rng)
            }
            let epoch = UInt32.random(in: 0...UInt32.max, using: &rng)
            let acknowledgement = try #require(Acknowledgement(epoch: epoch, positions: positions))
            let payload = acknowledgement.payload
            #expect(payload.kind == .acknowledgement && payload.body.count <= TypedPayload.bodyCapacity)
            #expect(Acknowledgement(payload) == acknowledgement)
            #expect(acknowledgement.positions == Set(positions).sorted())
        }
    }

    @Test func oneAcknowledgementCoversAtMost896Positions() throws {
        #expect(Acknowledgement.maxSpan == 896)
        #expect(Acknowledgement(epoch: 0, positions: [10, 10 + 895]) != nil)
        #expect(Acknowledgement(epoch: 0, positions: [10, 10 + 896]) == nil)
        #expect(Acknowledgement(epoch: 0, positions: []) == nil)
        let batches = Acknowledgement.batches(epoch: 3, positions: [0, 5, 895, 896, 2000, 2000])
        #expect(batches.map(\.positions) == [[0, 5, 895], [896], [2000]])
        #expect(batches.allSatisfy { $0.epoch == 3 })
    }

    @Test func aFewPositionsMakeAShortMessage() {
        let payload = Acknowledgement(epoch: 1, positions: [40, 41, 46])!.payload
        // epoch and first position (five septets each) and one septet of bitmap: 1100001.
        #expect(payload.body == [0, 0, 0, 0, 1, 0, 0, 0, 0, 40, 0b1100001])
    }

    @Test func malformedBodiesAreNotAcknowledgements() {
        let kind = TypedPayload.Kind.acknowledgement
        #expect(Acknowledgement(TypedPayload(kind: kind, body: Array(repeating: 0, count: 10))) == nil)  // no bitmap
        #expect(Acknowledgement(TypedPayload(kind: kind, body: Array(repeating: 0, count: 11))) == nil)  // no bit set
        #expect(Acknowledgement(TypedPayload(kind: kind, body: [0x7F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40])) == nil)  // epoch over 32 bits
        #expect(Acknowledgement(TypedPayload(kind: kind, body: [0, 0, 0, 0, 0, 15, 0x7F, 0x7F, 0x7F, 0x7F, 1])) == nil)  // past UInt32.max
        #expect(Acknowledgement(TypedPayload(kind: .textPart, body: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40])) == nil)
    }
}
