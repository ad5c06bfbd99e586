import GSM7

/// A phone number or sender name as SMS PDUs carry it (3GPP TS 23.040 §9.1.2.5).
public struct PhoneAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The type of number (the TON bits of the type-of-address octet).
    public enum Kind: Sendable, Equatable, Hashable {
        /// `+` and country code: TON 001, octet 0x91.
        case international
        /// A national number without the trunk prefix: TON 010, octet 0xA1.
        case national
        /// Unknown type, dialled as written: TON 000, octet 0x81.
        case unknown
        /// A sender name in GSM-7 (up to 11 characters): TON 101, octet 0xD0.
        case alphanumeric
    }

    /// The kind of number.
    public var kind: Kind
    /// Digits (and `*`, `#`) without `+`, or the name for ``Kind/alphanumeric``.
    public var value: String

    /// Creates an address from its parts.
    public init(kind: Kind, value: String) {
        self.kind = kind
        self.value = value
    }

    /// Parses how a user writes a number: `+15550001` is international, `15550001` unknown, and
    /// anything with letters is an alphanumeric sender.
    public init(_ text: String) {
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("+") {
            self.init(kind: .international, value: String(trimmed.dropFirst()))
        } else if !trimmed.isEmpty, trimmed.allSatisfy({ "0123456789*#".contains($0) }) {
            self.init(kind: .unknown, value: trimmed)
        } else {
            self.init(kind: .alphanumeric, value: trimmed)
        }
    }

    /// The address as a user reads it: `+` before international numbers.
    public var description: String {
        kind == .international ? "+" + value : value
    }

    /// The type-of-address octet.
    public var typeOfAddress: UInt8 {
        switch kind {
        case .international: return 0x91
        case .national: return 0xA1
        case .unknown: return 0x81
        case .alphanumeric: return 0xD0
        }
    }

    /// Encodes as a TP address (TP-OA, TP-DA, TP-RA): length in useful semi-octets, type, value.
    public func encodedTP() throws(PDUError) -> [UInt8] {
        let (length, body) = try encodedBody()
        return [UInt8(length), typeOfAddress] + body
    }

    /// Encodes as the SMSC address that precedes a TPDU: length in octets (type included), type,
    /// value; an empty value gives the single octet 0x00 ("use the SIM's SMSC").
    public func encodedSMSC() throws(PDUError) -> [UInt8] {
        if value.isEmpty { return [0x00] }
        let (_, body) = try encodedBody()
        return [UInt8(body.count + 1), typeOfAddress] + body
    }

    private func encodedBody() throws(PDUError) -> (semiOctets: Int, body: [UInt8]) {
        if kind == .alphanumeric {
            let septets: [UInt8]
            do { septets = try GSM7.septets(for: value) } catch {
                throw .unencodableText("the sender name '\(value)' is not GSM-7")
            }
            guard septets.count <= 11 else {
                throw .invalid(field: "address", reason: "an alphanumeric sender has at most 11 characters")
            }
            let packed = GSM7.pack(septets)
            return ((septets.count * 7 + 3) / 4, packed)
        }
        var nibbles: [UInt8] = []
        for character in value {
            guard let nibble = Self.nibble(for: character) else {
                throw .invalid(field: "address", reason: "'\(character)' is not a dialling digit")
            }
            nibbles.append(nibble)
        }
        guard nibbles.count <= 20 else {
            throw .invalid(field: "address", reason: "more than 20 digits")
        }
        return (nibbles.count, SemiOctets.encode(nibbles))
    }

    /// Decodes a TP address (TP-OA, TP-DA, TP-RA).
    static func decodeTP(_ reader: inout OctetReader, field: String) throws(PDUError) -> PhoneAddress {
        let semiOctets = Int(try reader.byte("\(field) length"))
        guard semiOctets <= 20 else {
            throw .invalid(field: field, reason: "length \(semiOctets) exceeds 20 semi-octets")
        }
        let type = try reader.byte("\(field) type")
        let body = try reader.bytes((semiOctets + 1) / 2, field)
        return try decodeBody(body, semiOctets: semiOctets, type: type, field: field)
    }

    /// Decodes the SMSC address that precedes a TPDU; `nil` when its length octet is 0.
    static func decodeSMSC(_ reader: inout OctetReader) throws(PDUError) -> PhoneAddress? {
        let length = Int(try reader.byte("SMSC length"))
        if length == 0 { return nil }
        guard length <= 11 else {
            throw .invalid(field: "SMSC", reason: "length \(length) exceeds 11 octets")
        }
        let type = try reader.byte("SMSC type")
        let body = try reader.bytes(length - 1, "SMSC")
        var semiOctets = body.count * 2
        if let last = body.last, last >> 4 == 0x0F { semiOctets -= 1 }
        return try decodeBody(body, semiOctets: semiOctets, type: type, field: "SMSC")
    }

    private static func decodeBody(
        _ body: [UInt8], semiOctets: Int, type: UInt8, field: String
    ) throws(PDUError) -> PhoneAddress {
        let ton = (type >> 4) & 0x07
        if ton == 0x05 {
            let septets = GSM7.unpack(body, count: semiOctets * 4 / 7)
            let name: String
            do { name = try GSM7.text(from: septets) } catch {
                throw .invalid(field: field, reason: "the alphanumeric address is not valid GSM-7")
            }
            return PhoneAddress(kind: .alphanumeric, value: name)
        }
        let digits = SemiOctets.decode(body, count: semiOctets).map { Self.character(for: $0) }
        let kind: Kind = ton == 0x01 ? .international : ton == 0x02 ? .national : .unknown
        return PhoneAddress(kind: kind, value: String(digits))
    }

    private static func nibble(for character: Character) -> UInt8? {
        switch character {
        case "0"..."9": return UInt8(character.asciiValue! - 0x30)
        case "*": return 0x0A
        case "#": return 0x0B
        case "a", "A": return 0x0C
        case "b", "B": return 0x0D
        case "c", "C": return 0x0E
        default: return nil
        }
    }

    private static func character(for nibble: UInt8) -> Character {
        switch nibble {
        case 0...9: return Character(Unicode.Scalar(0x30 + nibble))
        case 0x0A: return "*"
        case 0x0B: return "#"
        case 0x0C: return "a"
        case 0x0D: return "b"
        case 0x0E: return "c"
        default: return "?"
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
