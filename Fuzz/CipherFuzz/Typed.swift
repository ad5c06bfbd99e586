import Foundation
import SMSCipher
import SplitMix

/// A text (three times in five) or a typed payload of a random kind and body length.
@MainActor func randomPlaintext() -> Plaintext {
    guard rng.next() % 5 >= 3 else { return .text("fuzz \(iterations)") }
    let kind = TypedPayload.Kind(rawValue: UInt8(rng.next() % 128))
    let body = (0..<Int(rng.next() % UInt64(TypedPayload.bodyCapacity + 1))).map { _ in UInt8(rng.next() % 128) }
    return .typed(TypedPayload(kind: kind, body: body))
}

/// Random bodies through the part and acknowledgement parsers, and hostile parts (any count,
/// index, position and epoch) through a reassembly that must stay within its bounds.
@MainActor func fuzzTypedBodies() {
    let body = (0..<Int(rng.next() % UInt64(TypedPayload.bodyCapacity + 1))).map { _ in UInt8(rng.next() % 128) }
    if let acknowledgement = Acknowledgement(TypedPayload(kind: .acknowledgement, body: body)),
        Acknowledgement(acknowledgement.payload) != acknowledgement
    {
        fail("an acknowledgement changed through its payload")
    }
    let septets = (0..<Int(1 + rng.next() % 40)).map { _ in UInt8(0x20 + rng.next() % 0x5B) }
    let count = Int(2 + rng.next() % UInt64(TextPart.maxCount - 1))
    guard let part = TextPart(index: Int(1 + rng.next() % UInt64(count)), count: count, septets: septets) else { return }
    if TextPart(part.payload) != part { fail("a part changed through its payload") }
    let position = UInt32(truncatingIfNeeded: rng.next() % 4 == 0 ? rng.next() : rng.next() % 256)
    let result = assembly.add(part, position: position, epoch: UInt32(rng.next() % 2), now: now.addingTimeInterval(Double(iterations)))
    if case .complete(let text) = result.outcome, !text.isComplete { fail("an incomplete text was reported complete") }
    if rng.next() % 50 == 0 { _ = assembly.release(startedBefore: now.addingTimeInterval(Double(iterations) - 100)) }
    if assembly.pending.count > Reassembly.maxPendingTexts || assembly.handedOut.count > Reassembly.rememberedTexts
        || assembly.pending.contains(where: { $0.segments.count > TextPart.maxCount })
    {
        fail("reassembly exceeded its bounds")
    }
}
