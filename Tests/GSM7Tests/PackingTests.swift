import SplitMix
import Testing

@testable import GSM7

@Suite("7-bit packing")
struct PackingTests {
    /// Known vectors: "hellohello" and "How are you?" are the user data of widely published SMS-SUBMIT
    /// PDU examples; the others were checked with an independent bit-by-bit packer.
    static let vectors: [(text: String, octets: [UInt8])] = [
        ("hellohello", [0xE8, 0x32, 0x9B, 0xFD, 0x46, 0x97, 0xD9, 0xEC, 0x37]),
        ("hello", [0xE8, 0x32, 0x9B, 0xFD, 0x06]),
        ("How are you?", [0xC8, 0xF7, 0x1D, 0x14, 0x96, 0x97, 0x41, 0xF9, 0x77, 0xFD, 0x07]),
        // 7 septets fill 7 octets minus one bit; the 8th septet fills that octet.
        ("1234567", [0x31, 0xD9, 0x8C, 0x56, 0xB3, 0xDD, 0x00]),
        ("12345678", [0x31, 0xD9, 0x8C, 0x56, 0xB3, 0xDD, 0x70]),
        ("", []),
    ]

    @Test func knownVectors() throws {
        for (text, octets) in Self.vectors {
            let septets = try GSM7.septets(for: text)
            #expect(GSM7.pack(septets) == octets, "\(text)")
            #expect(GSM7.unpack(octets, count: septets.count) == septets, "\(text)")
        }
    }

    @Test func knownVectorsWithFillBits() throws {
        // A 6-octet concatenation header (8-bit reference) leaves 1 fill bit; an 8-octet header leaves 6.
        // Expected octets computed with an independent bit-by-bit packer.
        #expect(GSM7.pack(try GSM7.septets(for: "hello"), fillBits: 1) == [0xD0, 0x65, 0x36, 0xFB, 0x0D])
        #expect(
            GSM7.pack(try GSM7.septets(for: "hellohello"), fillBits: 6)
                == [0x00, 0xBA, 0xCC, 0x66, 0xBF, 0xD1, 0x65, 0x36, 0xFB, 0x0D])
    }

    @Test func fullSMSIs140Octets() {
        let septets = [UInt8](repeating: 0x41, count: 160)
        let octets = GSM7.pack(septets)
        #expect(octets.count == 140)
        #expect(GSM7.unpack(octets, count: 160) == septets)
    }

    @Test(arguments: 0...6)
    func fillBitsRoundTrip(fillBits: Int) {
        let septets = (0..<128).map(UInt8.init)
        let octets = GSM7.pack(septets, fillBits: fillBits)
        #expect(octets.count == (fillBits + 7 * septets.count + 7) / 8)
        #expect(octets.first.map { $0 & UInt8((1 << fillBits) - 1) } == 0, "fill bits are zero")
        #expect(GSM7.unpack(octets, count: septets.count, fillBits: fillBits) == septets)
        #expect(octets == Self.referencePack(septets, fillBits: fillBits))
    }

    @Test func randomRoundTripsAgainstABitByBitReference() {
        var generator = SplitMix64.replayable("randomRoundTripsAgainstABitByBitReference")
        for _ in 0..<1000 {
            let count = Int.random(in: 0...200, using: &generator)
            let fillBits = Int.random(in: 0...6, using: &generator)
            let septets = (0..<count).map { _ in UInt8.random(in: 0...0x7F, using: &generator) }
            let octets = GSM7.pack(septets, fillBits: fillBits)
            #expect(octets == Self.referencePack(septets, fillBits: fillBits))
            #expect(GSM7.unpack(octets, count: count, fillBits: fillBits) == septets)
        }
    }

    @Test func packIgnoresTheHighBit() {
        #expect(GSM7.pack([0xE8]) == GSM7.pack([0x68]))
    }

    @Test func unpackNeverReadsPastTheEnd() {
        let octets = GSM7.pack(try! GSM7.septets(for: "hellohello"))
        #expect(GSM7.unpack(octets, count: 50) == GSM7.unpack(octets, count: 10))
        #expect(GSM7.unpack(Array(octets.prefix(3)), count: 10).count == 3)
        #expect(GSM7.unpack([], count: 5) == [])
        #expect(GSM7.unpack(octets, count: -1) == [])
        #expect(GSM7.unpack([0xFF], count: 1, fillBits: 6) == [])
    }

    /// Packing written the slow, obvious way: one bit at a time.
    static func referencePack(_ septets: [UInt8], fillBits: Int) -> [UInt8] {
        var bits = [UInt8](repeating: 0, count: fillBits)
        for septet in septets {
            for bit in 0..<7 { bits.append((septet >> bit) & 1) }
        }
        while bits.count % 8 != 0 { bits.append(0) }
        return stride(from: 0, to: bits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { $0 | bits[start + $1] << $1 }
        }
    }
}
