extension GSM7 {
    /// Packs septets into octets as SMS user data does (3GPP TS 23.038 §6.1.2.1): bits run least
    /// significant first, septet after septet, with no gaps.
    ///
    /// The result has `(fillBits + 7 * septets.count + 7) / 8` octets; unused high bits of the last
    /// octet are zero. The septet count must travel beside the octets (the TP-UDL field does this),
    /// because 7 septets and 8 septets whose last is '@' pack to the same length.
    /// - Parameters:
    ///   - septets: Septets to pack; only the low 7 bits of each are used.
    ///   - fillBits: Zero bits placed first, 0...6, so that septets after a user data header start on a
    ///     septet boundary.
    public static func pack(_ septets: [UInt8], fillBits: Int = 0) -> [UInt8] {
        precondition((0...6).contains(fillBits), "fillBits must be 0...6, got \(fillBits)")
        let bitCount = fillBits + 7 * septets.count
        var octets = [UInt8](repeating: 0, count: (bitCount + 7) / 8)
        var bit = fillBits
        for septet in septets {
            let value = UInt16(septet & 0x7F) << UInt16(bit % 8)
            octets[bit / 8] |= UInt8(truncatingIfNeeded: value)
            if value > 0xFF {
                octets[bit / 8 + 1] |= UInt8(truncatingIfNeeded: value >> 8)
            }
            bit += 7
        }
        return octets
    }

    /// Unpacks `count` septets from octets packed by ``pack(_:fillBits:)``, skipping `fillBits` first.
    ///
    /// Never traps on short input: octets from a modem may be truncated, so when fewer than `count`
    /// septets are present, only the complete ones are returned (the caller can compare the count).
    /// - Parameters:
    ///   - octets: Packed user data.
    ///   - count: The number of septets to read (TP-UDL minus the header's septets).
    ///   - fillBits: Padding bits to skip, 0...6.
    public static func unpack(_ octets: [UInt8], count: Int, fillBits: Int = 0) -> [UInt8] {
        precondition((0...6).contains(fillBits), "fillBits must be 0...6, got \(fillBits)")
        let available = max(0, (octets.count * 8 - fillBits) / 7)
        let wanted = min(max(0, count), available)
        var septets: [UInt8] = []
        septets.reserveCapacity(wanted)
        var bit = fillBits
        for _ in 0..<wanted {
            let index = bit / 8
            var value = UInt16(octets[index])
            if index + 1 < octets.count {
                value |= UInt16(octets[index + 1]) << 8
            }
            septets.append(UInt8(truncatingIfNeeded: value >> UInt16(bit % 8)) & 0x7F)
            bit += 7
        }
        return septets
    }
}
