/// An SMS-STATUS-REPORT TPDU: the SMSC tells the sender what became of a submitted SMS
/// (3GPP TS 23.040 §9.2.2.3).
public struct SMSStatusReport: Sendable, Equatable, Hashable {
    /// TP-ST values this simulator uses (3GPP TS 23.040 §9.2.3.15).
    public enum Status {
        /// Short message received by the SME.
        public static let delivered: UInt8 = 0x00
        /// Temporary error, SC still trying: congestion.
        public static let congestionStillTrying: UInt8 = 0x20
        /// Permanent error: remote procedure error.
        public static let remoteProcedureError: UInt8 = 0x40
        /// Permanent error: incompatible destination.
        public static let incompatibleDestination: UInt8 = 0x41
        /// Permanent error: SM validity period expired.
        public static let validityPeriodExpired: UInt8 = 0x46
        /// Permanent error: "not obtainable" — the simulator's answer for an unknown number.
        public static let notObtainable: UInt8 = 0x44
    }

    /// TP-MR of the SMS-SUBMIT this reports on (the number +CMGS returned).
    public var messageReference: UInt8
    /// TP-RA: the recipient of the original SMS.
    public var recipient: PhoneAddress
    /// When the SMSC received the original SMS.
    public var serviceCentreTimestamp: SMSTimestamp
    /// TP-DT: when it was delivered or finally failed.
    public var dischargeTime: SMSTimestamp
    /// TP-ST.
    public var status: UInt8
    public var moreMessagesToSend: Bool
    /// TP-SRQ: this reports on an SMS-COMMAND rather than a submit.
    public var isCommandReport: Bool

    public init(
        messageReference: UInt8, recipient: PhoneAddress, serviceCentreTimestamp: SMSTimestamp,
        dischargeTime: SMSTimestamp, status: UInt8, moreMessagesToSend: Bool = false,
        isCommandReport: Bool = false
    ) {
        self.messageReference = messageReference
        self.recipient = recipient
        self.serviceCentreTimestamp = serviceCentreTimestamp
        self.dischargeTime = dischargeTime
        self.status = status
        self.moreMessagesToSend = moreMessagesToSend
        self.isCommandReport = isCommandReport
    }

    /// Whether TP-ST says the SMS reached its recipient.
    public var isDelivered: Bool { status < 0x20 }
    /// Whether TP-ST is a permanent failure (the SMSC gave up).
    public var isPermanentFailure: Bool { (0x40...0x5F).contains(status) || status >= 0x60 && status < 0x80 }

    /// The TPDU octets, without an SMSC address (no TP-PI: no optional parameters).
    public func encoded() throws(PDUError) -> [UInt8] {
        var first: UInt8 = 0x02
        if !moreMessagesToSend { first |= 0x04 }
        if isCommandReport { first |= 0x20 }
        var out: [UInt8] = [first, messageReference]
        out += try recipient.encodedTP()
        out += serviceCentreTimestamp.encoded
        out += dischargeTime.encoded
        out.append(status)
        return out
    }

    /// Decodes a TPDU (without an SMSC address); optional parameters after TP-ST are skipped.
    public static func decode(_ tpdu: [UInt8]) throws(PDUError) -> SMSStatusReport {
        var reader = OctetReader(tpdu)
        let first = try reader.byte("first octet")
        guard first & 0x03 == 0x02 else {
            throw .invalid(field: "TP-MTI", reason: "\(first & 0x03) is not SMS-STATUS-REPORT")
        }
        let reference = try reader.byte("TP-MR")
        let recipient = try PhoneAddress.decodeTP(&reader, field: "TP-RA")
        let scts = try SMSTimestamp.decode(&reader, field: "TP-SCTS")
        let dt = try SMSTimestamp.decode(&reader, field: "TP-DT")
        let status = try reader.byte("TP-ST")
        return SMSStatusReport(
            messageReference: reference, recipient: recipient, serviceCentreTimestamp: scts,
            dischargeTime: dt, status: status, moreMessagesToSend: first & 0x04 == 0,
            isCommandReport: first & 0x20 != 0)
    }
}
