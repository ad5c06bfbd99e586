import Foundation
import GSM7
import SplitMix
import Testing

@testable import SMSCipher

/// Typed payloads (docs/PROTOCOL.md §3.4): sealed like texts, opened as typed, never read as text.
@Suite struct TypedMessageTests {
    @Test func aTypedPayloadRoundTripsAndIsNotAText() throws {
        var pair = Pair(seed: 7)
        let payload = TypedPayload(kind: .init(rawValue: 99), body: [0, 0x1B, 0x7F, 0x1B, 0x1B])
        let sealed = try pair.alice.sealing(.typed(payload), using: &pair.rng)
        pair.alice = sealed.session
        #expect(sealed.ciphertext.count == ProtocolConstants.wireLength)
        #expect(Set(sealed.ciphertext.unicodeScalars).isSubset(of: Set(WireAlphabet.characters)))
        let result = try pair.bob.opening(sealed.ciphertext, now: pair.now, using: &pair.rng)
        guard case .typed(let typed) = result.opened else { throw TestFailure("expected a typed payload, got \(result.opened)") }
        #expect(typed.payload == payload)
        #expect(typed.position == 0 && typed.epoch == 0 && !typed.wasLate)
        #expect(!typed.payload.kind.isKnown)
    }

    @Test func aFullBodyAndAnEmptyBodyRoundTrip() throws {
        var pair = Pair(seed: 8)
        for body in [[UInt8](repeating: 0x55, count: TypedPayload.bodyCapacity), []] {
            let payload = TypedPayload(kind: .acknowledgement, body: body)
            let sealed = try pair.alice.sealing(.typed(payload), using: &pair.rng)
            pair.alice = sealed.session
            let result = try pair.bob.opening(sealed.ciphertext, now: pair.now, using: &pair.rng)
            pair.bob = result.session
            guard case .typed(let typed) = result.opened else { throw TestFailure("expected a typed payload") }
            #expect(typed.payload == payload)
        }
    }

    /// What a version-1 receiver does: its GSM-7 decoding refuses ESC ESC, so the message fails
    /// verification like any forgery, and its state stays as it was.
    @Test func aVersionOneReceiverCannotReadATypedPayloadAsText() {
        let payload = TypedPayload(kind: .textPart, body: [1, 2, 0x41])
        #expect(throws: GSM7Error.self) { try GSM7.text(from: payload.septets) }
    }

    /// No text encodes to septets beginning with the marker, so no text is ever read as typed.
    @Test func noTextIsMistakenForATypedPayload() throws {
        var rng = SplitMix64(seed: 9)
        for septets in 0...ProtocolConstants.textCapacity {
            let text = randomGSM7Text(septets: septets, using: &rng)
            #expect(!TypedPayload.isMarked(try GSM7.septets(for: text)))
        }
        for text in ["€€", "\u{1B}\u{1B}", "{", "|€"] {
            let septets = try? GSM7.septets(for: text)
            #expect(septets.map(TypedPayload.isMarked) != true, "\(text)")
        }
    }

    @Test func textsKeepTheirFullCapacity() throws {
        var pair = Pair(seed: 10)
        let text = String(repeating: "€", count: 70) + "!"
        #expect(try pair.bobOpens(pair.aliceSeals(text)) == text)
    }

    @Test func typedMessagesOpenLateFromSkippedKeys() throws {
        var pair = Pair(seed: 11)
        let first = try pair.alice.sealing(.typed(TypedPayload(kind: .textPart, body: [1, 2, 0x41])), using: &pair.rng)
        pair.alice = first.session
        _ = try pair.bobOpens(pair.aliceSeals("overtakes the part"))
        let result = try pair.bob.opening(first.ciphertext, now: pair.now, using: &pair.rng)
        guard case .typed(let typed) = result.opened else { throw TestFailure("expected a typed payload") }
        #expect(typed.wasLate && typed.position == 0)
    }
}
