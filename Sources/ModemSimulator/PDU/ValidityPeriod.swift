/// TP-VP of an SMS-SUBMIT in one of its three formats (3GPP TS 23.040 §9.2.3.12).
public enum ValidityPeriod: Sendable, Equatable, Hashable {
    /// One octet: 0-143 five-minute steps to 12 h, then half hours, days (167-196), weeks (197-255).
    case relative(UInt8)
    /// An absolute expiry time.
    case absolute(SMSTimestamp)
    /// Seven octets in the enhanced format, kept as they are.
    case enhanced([UInt8])

    /// The TP-VPF bits (3 and 4 of the first octet) that announce this format.
    var formatBits: UInt8 {
        switch self {
        case .relative: return 0x10
        case .enhanced: return 0x08
        case .absolute: return 0x18
        }
    }

    var encoded: [UInt8] {
        switch self {
        case .relative(let v): return [v]
        case .absolute(let t): return t.encoded
        case .enhanced(let o): return Array((o + [UInt8](repeating: 0, count: 7)).prefix(7))
        }
    }

    /// The period in seconds for the relative format.
    public var relativeSeconds: Int? {
        guard case .relative(let v) = self else { return nil }
        let n = Int(v)
        switch n {
        case 0...143: return (n + 1) * 5 * 60
        case 144...167: return 12 * 3600 + (n - 143) * 30 * 60
        case 168...196: return (n - 166) * 86400
        default: return (n - 192) * 7 * 86400
        }
    }

    static func decode(_ reader: inout OctetReader, firstOctet: UInt8) throws(PDUError) -> ValidityPeriod? {
        switch firstOctet & 0x18 {
        case 0x10: return .relative(try reader.byte("TP-VP"))
        case 0x08: return .enhanced(try reader.bytes(7, "TP-VP"))
        case 0x18: return .absolute(try SMSTimestamp.decode(&reader, field: "TP-VP"))
        default: return nil
        }
    }
}
