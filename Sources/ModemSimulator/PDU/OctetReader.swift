/// A cursor over PDU octets that throws instead of trapping when the PDU is short.
struct OctetReader {
    let octets: [UInt8]
    private(set) var offset = 0

    init(_ octets: [UInt8]) {
        self.octets = octets
    }

    var remaining: Int { octets.count - offset }
    var isAtEnd: Bool { offset >= octets.count }

    mutating func byte(_ field: String) throws(PDUError) -> UInt8 {
        guard offset < octets.count else { throw .truncated(field: field) }
        defer { offset += 1 }
        return octets[offset]
    }

    mutating func bytes(_ count: Int, _ field: String) throws(PDUError) -> [UInt8] {
        guard count >= 0, offset + count <= octets.count else { throw .truncated(field: field) }
        defer { offset += count }
        return Array(octets[offset..<offset + count])
    }

    mutating func rest() -> [UInt8] {
        defer { offset = octets.count }
        return Array(octets[offset...])
    }
}

/// Semi-octet (swapped nibble) helpers shared by addresses and timestamps.
enum SemiOctets {
    /// Packs decimal/BCD digits two per octet, low nibble first, padding an odd count with 0xF.
    static func encode(_ nibbles: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < nibbles.count {
            let low = nibbles[index]
            let high = index + 1 < nibbles.count ? nibbles[index + 1] : 0x0F
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Unpacks `count` nibbles, low nibble first.
    static func decode(_ octets: [UInt8], count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for octet in octets {
            out.append(octet & 0x0F)
            out.append(octet >> 4)
        }
        return Array(out.prefix(count))
    }

    /// A two-digit BCD value with swapped nibbles (timestamps).
    static func swappedBCD(_ value: Int) -> UInt8 {
        UInt8((value % 10) << 4 | (value / 10) % 10)
    }

    static func fromSwappedBCD(_ octet: UInt8) -> Int {
        Int(octet & 0x0F) * 10 + Int(octet >> 4)
    }
}
