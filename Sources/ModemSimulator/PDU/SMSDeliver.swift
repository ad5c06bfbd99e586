/// An SMS-DELIVER TPDU: what the SMSC hands to the recipient's phone (3GPP TS 23.040 §9.2.2.1).
public struct SMSDeliver: Sendable, Equatable, Hashable {
    public var originator: PhoneAddress
    public var protocolIdentifier: UInt8
    public var dataCoding: DataCodingScheme
    public var serviceCentreTimestamp: SMSTimestamp
    public var userData: UserData
    /// TP-MMS is 0 when more messages wait at the SMSC; this is its inverse.
    public var moreMessagesToSend: Bool
    /// TP-SRI: the originator asked for a status report.
    public var statusReportIndication: Bool
    public var replyPath: Bool

    public init(
        originator: PhoneAddress, userData: UserData, serviceCentreTimestamp: SMSTimestamp,
        protocolIdentifier: UInt8 = 0, messageClass: UInt8? = nil,
        moreMessagesToSend: Bool = false, statusReportIndication: Bool = false, replyPath: Bool = false
    ) {
        self.originator = originator
        self.userData = userData
        self.serviceCentreTimestamp = serviceCentreTimestamp
        self.protocolIdentifier = protocolIdentifier
        self.dataCoding = DataCodingScheme(alphabet: userData.alphabet, messageClass: messageClass)
        self.moreMessagesToSend = moreMessagesToSend
        self.statusReportIndication = statusReportIndication
        self.replyPath = replyPath
    }

    /// The TPDU octets, without an SMSC address.
    public func encoded() throws(PDUError) -> [UInt8] {
        var first: UInt8 = 0x00
        if !moreMessagesToSend { first |= 0x04 }
        if statusReportIndication { first |= 0x20 }
        if userData.header != nil { first |= 0x40 }
        if replyPath { first |= 0x80 }
        let (udl, ud) = try userData.encoded()
        var out: [UInt8] = [first]
        out += try originator.encodedTP()
        out += [protocolIdentifier, dataCoding.rawValue]
        out += serviceCentreTimestamp.encoded
        out.append(udl)
        return out + ud
    }

    /// Decodes a TPDU (without an SMSC address).
    public static func decode(_ tpdu: [UInt8]) throws(PDUError) -> SMSDeliver {
        var reader = OctetReader(tpdu)
        let first = try reader.byte("first octet")
        guard first & 0x03 == 0x00 else {
            throw .invalid(field: "TP-MTI", reason: "\(first & 0x03) is not SMS-DELIVER")
        }
        let originator = try PhoneAddress.decodeTP(&reader, field: "TP-OA")
        let pid = try reader.byte("TP-PID")
        let dcs = DataCodingScheme(rawValue: try reader.byte("TP-DCS"))
        let scts = try SMSTimestamp.decode(&reader, field: "TP-SCTS")
        let udl = Int(try reader.byte("TP-UDL"))
        let ud = try UserData.decode(
            length: udl, octets: reader.rest(), alphabet: dcs.alphabet, hasHeader: first & 0x40 != 0)
        var deliver = SMSDeliver(
            originator: originator, userData: ud, serviceCentreTimestamp: scts, protocolIdentifier: pid,
            moreMessagesToSend: first & 0x04 == 0, statusReportIndication: first & 0x20 != 0,
            replyPath: first & 0x80 != 0)
        deliver.dataCoding = dcs
        return deliver
    }
}
