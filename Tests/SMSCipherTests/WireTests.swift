import SplitMix
import Testing

@testable import SMSCipher

@Suite struct WireTests {
    @Test func wireNumberRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var low = (0..<135).map { _ in UInt8.random(in: 0...255, using: &rng) }
            low[0] &= 0x03
            let tag = UInt64.random(in: 0..<ProtocolConstants.tagModulus, using: &rng)
            let number = WireNumber(tag: tag, low: low)
            #expect(number.tag == tag)
            #expect(number.low == low)
            let digits = number.digits
            #expect(digits.allSatisfy { $0 < 122 })
            #expect(WireNumber(digits: digits) == number)
        }
    }

    @Test func envelopeRoundTrip() throws {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<200 {
            var body = (0..<132).map { _ in UInt8.random(in: 0...255, using: &rng) }
            body[0] &= 0x0F
            let envelope = Envelope(
                tag: UInt64.random(in: 0..<ProtocolConstants.tagModulus, using: &rng),
                identifier: UInt16.random(in: 0...UInt16.max, using: &rng),
                reference: UInt8.random(in: 0..<64, using: &rng), body: body)
            #expect(try Envelope(text: envelope.text) == envelope)
        }
    }

    @Test func payloadRoundTrip() throws {
        var rng = SplitMix64(seed: 11)
        for count in 0...ProtocolConstants.textCapacity {
            let septets = (0..<count).map { _ in UInt8.random(in: 0..<128, using: &rng) }
            let payload = Payload(septets: septets, fresh: rng.next())
            let paddingBits = Payload.paddingBits(forSeptets: count)
            let padding = MessageKeys.padding(tagDigest: (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }, bits: paddingBits)
            let bytes = payload.encoded(padding: padding)
            let decoded = try #require(Payload.decode(bytes))
            #expect(decoded.payload == payload)
            #expect(decoded.padding == padding)
        }
    }
}
