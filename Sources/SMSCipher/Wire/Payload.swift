/// The plaintext of a data message: text slot and fresh value, 1052 bits in 132 bytes.
///
/// The text slot is [k ones][one zero][7n bits of septets][6k bits of keyed padding] with
/// n septets and k = capacity − n: a unary length that costs one bit at full length and gives each
/// unused septet six bits of extra authentication (docs/PROTOCOL.md §3.3).
struct Payload: Equatable {
    static let byteCount = 132
    /// The payload occupies the low 1052 bits; the first 4 bits of byte 0 are always zero.
    static let leadingZeroBits = byteCount * 8 - ProtocolConstants.payloadBits

    var septets: [UInt8]
    var fresh: UInt64

    /// Bits of keyed padding a text of `septetCount` septets carries.
    static func paddingBits(forSeptets septetCount: Int) -> Int {
        6 * (ProtocolConstants.textCapacity - septetCount)
    }

    /// Packs the payload; `padding` holds at least `paddingBits` bits, most significant first.
    func encoded(padding: [UInt8]) -> [UInt8] {
        let capacity = ProtocolConstants.textCapacity
        let unused = capacity - septets.count
        var writer = BitWriter(capacityBits: Self.byteCount * 8)
        writer.skip(bits: Self.leadingZeroBits)
        for _ in 0..<unused { writer.write(1, bits: 1) }
        writer.write(0, bits: 1)
        for septet in septets { writer.write(UInt64(septet), bits: 7) }
        writer.write(bitsOf: padding, bits: 6 * unused)
        writer.write(fresh, bits: 64)
        precondition(writer.bitCount == Self.byteCount * 8)
        return writer.bytes
    }

    /// Unpacks a decrypted payload, returning it with its padding bits (packed, most significant first).
    /// Returns nil when the length prefix is impossible, which no honest sender produces.
    static func decode(_ bytes: [UInt8]) -> (payload: Payload, padding: [UInt8])? {
        guard bytes.count == byteCount, bytes[0] & 0xF0 == 0 else { return nil }
        let capacity = ProtocolConstants.textCapacity
        var reader = BitReader(bytes, bitOffset: leadingZeroBits)
        var unused = 0
        while reader.read(bits: 1) == 1 {
            unused += 1
            if unused > capacity { return nil }
        }
        let count = capacity - unused
        var septets = [UInt8](repeating: 0, count: count)
        for index in 0..<count { septets[index] = UInt8(reader.read(bits: 7)) }
        let padding = reader.readBytes(bits: 6 * unused)
        let fresh = reader.read(bits: 64)
        return (Payload(septets: septets, fresh: fresh), padding)
    }
}
