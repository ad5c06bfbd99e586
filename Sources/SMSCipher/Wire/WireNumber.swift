/// The whole message as one integer X in [0, 122^160), little-endian 64-bit limbs.
///
/// X = tag × 2^1074 + low, where `low` holds the identifier, the reference and the payload
/// (docs/PROTOCOL.md §3). Only the conversions the wire format needs are implemented.
struct WireNumber: Equatable {
    static let limbCount = 18
    static let radix: UInt64 = 122
    /// 122^9, the largest power of 122 below 2^64, so digits convert nine at a time.
    static let chunkRadix: UInt64 = 5_987_402_799_531_080_192
    static let chunkDigits = 9
    /// Bytes of `low`: 1074 bits rounded up to 135 bytes, the top 6 bits zero.
    static let lowByteCount = 135
    static let lowBitCount = ProtocolConstants.lowBits

    private(set) var limbs: [UInt64]

    init(limbs: [UInt64]) {
        precondition(limbs.count == Self.limbCount)
        self.limbs = limbs
    }

    /// Builds X from the tag and the 135 bytes of the low part (big-endian).
    init(tag: UInt64, low: [UInt8]) {
        precondition(low.count == Self.lowByteCount)
        var limbs = [UInt64](repeating: 0, count: Self.limbCount)
        for (offset, byte) in low.reversed().enumerated() {
            limbs[offset / 8] |= UInt64(byte) << (8 * UInt64(offset % 8))
        }
        // 1074 = 16 × 64 + 50: the tag starts at bit 50 of limb 16.
        limbs[16] |= tag << 50
        limbs[17] = tag >> 14
        self.limbs = limbs
    }

    var tag: UInt64 {
        limbs[16] >> 50 | limbs[17] << 14
    }

    /// The low 1074 bits as 135 big-endian bytes.
    var low: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.lowByteCount)
        for offset in 0..<Self.lowByteCount {
            var byte = UInt8(truncatingIfNeeded: limbs[offset / 8] >> (8 * UInt64(offset % 8)))
            if offset == Self.lowByteCount - 1 { byte &= 0x03 }  // bits 1072 and 1073 only
            bytes[Self.lowByteCount - 1 - offset] = byte
        }
        return bytes
    }

    /// X from base-122 digits, most significant first. The caller checks the digit values.
    init(digits: [UInt8]) {
        precondition(digits.count == ProtocolConstants.wireLength)
        var limbs = [UInt64](repeating: 0, count: Self.limbCount)
        var used = 1
        var index = 0
        let leading = digits.count % Self.chunkDigits
        var chunkLength = leading == 0 ? Self.chunkDigits : leading
        while index < digits.count {
            var chunk: UInt64 = 0
            var multiplier: UInt64 = 1
            for digit in digits[index..<(index + chunkLength)] {
                chunk = chunk * Self.radix + UInt64(digit)
                multiplier *= Self.radix
            }
            // limbs = limbs × multiplier + chunk
            var carry = chunk
            for limb in 0..<used {
                let product = limbs[limb].multipliedFullWidth(by: multiplier)
                let (sum, overflow) = product.low.addingReportingOverflow(carry)
                limbs[limb] = sum
                carry = product.high &+ (overflow ? 1 : 0)
            }
            if carry != 0 && used < Self.limbCount {
                limbs[used] = carry
                used += 1
            }
            index += chunkLength
            chunkLength = Self.chunkDigits
        }
        self.limbs = limbs
    }

    /// The 160 base-122 digits of X, most significant first.
    var digits: [UInt8] {
        var remaining = limbs
        var used = Self.limbCount
        while used > 1 && remaining[used - 1] == 0 { used -= 1 }
        var digits = [UInt8](repeating: 0, count: ProtocolConstants.wireLength)
        var position = digits.count
        while position > 0 {
            var remainder: UInt64 = 0
            for limb in stride(from: used - 1, through: 0, by: -1) {
                let (quotient, rest) = Self.chunkRadix.dividingFullWidth((high: remainder, low: remaining[limb]))
                remaining[limb] = quotient
                remainder = rest
            }
            while used > 1 && remaining[used - 1] == 0 { used -= 1 }
            let count = min(Self.chunkDigits, position)
            for _ in 0..<count {
                position -= 1
                digits[position] = UInt8(remainder % Self.radix)
                remainder /= Self.radix
            }
        }
        return digits
    }
}
