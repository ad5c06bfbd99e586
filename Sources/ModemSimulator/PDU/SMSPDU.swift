/// A TPDU of one of the three kinds the simulator handles.
public enum TPDU: Sendable, Equatable, Hashable {
    case submit(SMSSubmit)
    case deliver(SMSDeliver)
    case statusReport(SMSStatusReport)

    /// Which way a TPDU travels; TP-MTI means different things each way.
    public enum Direction: Sendable {
        /// Phone to SMSC: SUBMIT (and COMMAND, DELIVER-REPORT, not handled).
        case mobileOriginated
        /// SMSC to phone: DELIVER and STATUS-REPORT.
        case mobileTerminated
    }

    public func encoded() throws(PDUError) -> [UInt8] {
        switch self {
        case .submit(let s): return try s.encoded()
        case .deliver(let d): return try d.encoded()
        case .statusReport(let r): return try r.encoded()
        }
    }

    public static func decode(_ octets: [UInt8], direction: Direction) throws(PDUError) -> TPDU {
        guard let first = octets.first else { throw .truncated(field: "first octet") }
        switch (direction, first & 0x03) {
        case (.mobileOriginated, 0x01): return .submit(try SMSSubmit.decode(octets))
        case (.mobileTerminated, 0x00): return .deliver(try SMSDeliver.decode(octets))
        case (.mobileTerminated, 0x02): return .statusReport(try SMSStatusReport.decode(octets))
        default:
            throw .invalid(field: "TP-MTI", reason: "message type \(first & 0x03) is not handled \(direction)")
        }
    }
}

/// A PDU as AT+CMGS, +CMGR and +CMGL carry it: an SMSC address followed by a TPDU.
public struct SMSPDU: Sendable, Equatable, Hashable {
    /// `nil` when the SMSC length octet is 0 (the modem's default SMSC).
    public var serviceCentre: PhoneAddress?
    public var tpdu: TPDU

    public init(serviceCentre: PhoneAddress?, tpdu: TPDU) {
        self.serviceCentre = serviceCentre
        self.tpdu = tpdu
    }

    /// The octets: SMSC address then TPDU; ``tpduLength`` is the length AT commands announce.
    public func encoded() throws(PDUError) -> [UInt8] {
        let smsc = try (serviceCentre ?? PhoneAddress(kind: .unknown, value: "")).encodedSMSC()
        return smsc + (try tpdu.encoded())
    }

    /// Octets of the TPDU alone, the `<length>` of AT+CMGS and +CMGR.
    public func tpduLength() throws(PDUError) -> Int {
        try tpdu.encoded().count
    }

    /// Decodes octets that start with an SMSC address.
    public static func decode(_ octets: [UInt8], direction: TPDU.Direction) throws(PDUError) -> SMSPDU {
        var reader = OctetReader(octets)
        let smsc = try PhoneAddress.decodeSMSC(&reader)
        return SMSPDU(serviceCentre: smsc, tpdu: try TPDU.decode(reader.rest(), direction: direction))
    }

    /// Decodes hex text that starts with an SMSC address.
    public static func decode(hex: String, direction: TPDU.Direction) throws(PDUError) -> SMSPDU {
        try decode(try Hex.decode(hex), direction: direction)
    }
}
