/// Hexadecimal text as AT commands carry PDUs: two upper-case digits per octet.
public enum Hex {
    /// The octets as upper-case hex digits without separators.
    public static func encode(_ octets: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(octets.count * 2)
        for octet in octets {
            out.append(digits[Int(octet >> 4)])
            out.append(digits[Int(octet & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses hex digits (either case, surrounding whitespace ignored) into octets.
    /// - Throws: ``PDUError/invalidHex(_:)`` for an odd count or a non-hex character.
    public static func decode(_ text: String) throws(PDUError) -> [UInt8] {
        let trimmed = text.utf8.filter { $0 != 0x20 && $0 != 0x0D && $0 != 0x0A && $0 != 0x09 }
        guard trimmed.count % 2 == 0 else { throw .invalidHex(text) }
        var octets: [UInt8] = []
        octets.reserveCapacity(trimmed.count / 2)
        var index = 0
        while index < trimmed.count {
            guard let high = nibble(trimmed[index]), let low = nibble(trimmed[index + 1]) else {
                throw .invalidHex(text)
            }
            octets.append(high << 4 | low)
            index += 2
        }
        return octets
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
