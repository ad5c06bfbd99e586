/// An SMS-SUBMIT TPDU: what a phone sends to its SMSC (3GPP TS 23.040 §9.2.2.2).
public struct SMSSubmit: Sendable, Equatable, Hashable {
    /// TP-MR as the phone set it (modems usually send 0 and answer +CMGS with their own).
    public var messageReference: UInt8
    public var destination: PhoneAddress
    public var protocolIdentifier: UInt8
    public var dataCoding: DataCodingScheme
    public var validityPeriod: ValidityPeriod?
    public var userData: UserData
    /// TP-SRR: the sender wants an SMS-STATUS-REPORT.
    public var statusReportRequest: Bool
    /// TP-RD.
    public var rejectDuplicates: Bool
    /// TP-RP.
    public var replyPath: Bool

    public init(
        destination: PhoneAddress, userData: UserData, messageReference: UInt8 = 0,
        statusReportRequest: Bool = false, validityPeriod: ValidityPeriod? = nil,
        protocolIdentifier: UInt8 = 0, messageClass: UInt8? = nil,
        rejectDuplicates: Bool = false, replyPath: Bool = false
    ) {
        self.destination = destination
        self.userData = userData
        self.messageReference = messageReference
        self.statusReportRequest = statusReportRequest
        self.validityPeriod = validityPeriod
        self.protocolIdentifier = protocolIdentifier
        self.dataCoding = DataCodingScheme(alphabet: userData.alphabet, messageClass: messageClass)
        self.rejectDuplicates = rejectDuplicates
        self.replyPath = replyPath
    }

    /// The TPDU octets, without an SMSC address.
    public func encoded() throws(PDUError) -> [UInt8] {
        var first: UInt8 = 0x01
        if rejectDuplicates { first |= 0x04 }
        if let validityPeriod { first |= validityPeriod.formatBits }
        if statusReportRequest { first |= 0x20 }
        if userData.header != nil { first |= 0x40 }
        if replyPath { first |= 0x80 }
        let (udl, ud) = try userData.encoded()
        var out: [UInt8] = [first, messageReference]
        out += try destination.encodedTP()
        out += [protocolIdentifier, dataCoding.rawValue]
        out += validityPeriod?.encoded ?? []
        out.append(udl)
        return out + ud
    }

    /// Decodes a TPDU (without an SMSC address).
    public static func decode(_ tpdu: [UInt8]) throws(PDUError) -> SMSSubmit {
        var reader = OctetReader(tpdu)
        let first = try reader.byte("first octet")
        guard first & 0x03 == 0x01 else {
            throw .invalid(field: "TP-MTI", reason: "\(first & 0x03) is not SMS-SUBMIT")
        }
        let reference = try reader.byte("TP-MR")
        let destination = try PhoneAddress.decodeTP(&reader, field: "TP-DA")
        let pid = try reader.byte("TP-PID")
        let dcs = DataCodingScheme(rawValue: try reader.byte("TP-DCS"))
        let vp = try ValidityPeriod.decode(&reader, firstOctet: first)
        let udl = Int(try reader.byte("TP-UDL"))
        let ud = try UserData.decode(
            length: udl, octets: reader.rest(), alphabet: dcs.alphabet, hasHeader: first & 0x40 != 0)
        var submit = SMSSubmit(
            destination: destination, userData: ud, messageReference: reference,
            statusReportRequest: first & 0x20 != 0, validityPeriod: vp, protocolIdentifier: pid,
            rejectDuplicates: first & 0x04 != 0, replyPath: first & 0x80 != 0)
        submit.dataCoding = dcs
        return submit
    }
}
