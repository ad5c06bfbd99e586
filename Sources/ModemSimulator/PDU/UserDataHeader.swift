/// One information element of a user data header (3GPP TS 23.040 §9.2.3.24).
public struct InformationElement: Sendable, Equatable, Hashable {
    public var identifier: UInt8
    public var data: [UInt8]

    public init(identifier: UInt8, data: [UInt8]) {
        self.identifier = identifier
        self.data = data
    }
}

/// Which part of a concatenated SMS this is (IE 0x00 with an 8-bit or 0x08 with a 16-bit reference).
public struct Concatenation: Sendable, Equatable, Hashable {
    public var reference: UInt16
    /// Whether the reference travels in 16 bits (IE 0x08) rather than 8 (IE 0x00).
    public var isSixteenBit: Bool
    public var total: UInt8
    /// 1-based.
    public var sequence: UInt8

    public init(reference: UInt16, isSixteenBit: Bool = false, total: UInt8, sequence: UInt8) {
        self.reference = reference
        self.isSixteenBit = isSixteenBit
        self.total = total
        self.sequence = sequence
    }

    var element: InformationElement {
        if isSixteenBit {
            return InformationElement(
                identifier: 0x08, data: [UInt8(reference >> 8), UInt8(reference & 0xFF), total, sequence])
        }
        return InformationElement(identifier: 0x00, data: [UInt8(reference & 0xFF), total, sequence])
    }
}

/// A user data header: the information elements that precede the text when TP-UDHI is set.
public struct UserDataHeader: Sendable, Equatable, Hashable {
    public var elements: [InformationElement]

    public init(elements: [InformationElement]) {
        self.elements = elements
    }

    /// A header holding only a concatenation element.
    public init(concatenation: Concatenation) {
        self.elements = [concatenation.element]
    }

    /// The concatenation element, if there is one.
    public var concatenation: Concatenation? {
        for element in elements {
            if element.identifier == 0x00, element.data.count == 3 {
                return Concatenation(
                    reference: UInt16(element.data[0]), isSixteenBit: false,
                    total: element.data[1], sequence: element.data[2])
            }
            if element.identifier == 0x08, element.data.count == 4 {
                return Concatenation(
                    reference: UInt16(element.data[0]) << 8 | UInt16(element.data[1]), isSixteenBit: true,
                    total: element.data[2], sequence: element.data[3])
            }
        }
        return nil
    }

    /// The header octets including the leading TP-UDHL octet.
    public var encoded: [UInt8] {
        var body: [UInt8] = []
        for element in elements {
            body.append(element.identifier)
            body.append(UInt8(element.data.count))
            body += element.data
        }
        return [UInt8(body.count)] + body
    }

    /// Parses a header whose first octet is TP-UDHL.
    static func decode(_ octets: [UInt8]) throws(PDUError) -> UserDataHeader {
        guard let length = octets.first else { throw .truncated(field: "TP-UDHL") }
        guard octets.count >= 1 + Int(length) else { throw .truncated(field: "user data header") }
        var reader = OctetReader(Array(octets[1..<(1 + Int(length))]))
        var elements: [InformationElement] = []
        while !reader.isAtEnd {
            let identifier = try reader.byte("IEI")
            let size = Int(try reader.byte("IE length"))
            elements.append(InformationElement(identifier: identifier, data: try reader.bytes(size, "IE data")))
        }
        return UserDataHeader(elements: elements)
    }
}
