/// SMS text mode (AT+CMGF=1, 3GPP TS 27.005 §3.1 and §4): the same memory and SMSC as PDU mode,
/// shown and entered as text. libgammu uses PDU mode; this is for people and simple clients.
extension SimulatedModem {
    static let statusNames = ["REC UNREAD", "REC READ", "STO UNSENT", "STO SENT", "ALL"]

    /// `<stat>` from its text-mode name.
    static func status(named name: String) -> Int? {
        statusNames.firstIndex(of: name.uppercased())
    }

    /// "yy/MM/dd,hh:mm:ss±zz" as text mode shows timestamps.
    static func textTimestamp(_ t: SMSTimestamp) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = t.timeZoneQuarters < 0 ? "-" : "+"
        return
            "\(two(t.year % 100))/\(two(t.month))/\(two(t.day)),\(two(t.hour)):\(two(t.minute)):\(two(t.second))\(sign)\(two(abs(t.timeZoneQuarters)))"
    }

    /// The +CMGL/+CMGR header and data lines of a stored SMS in text mode.
    /// - Parameter index: `nil` for +CMGR (no index), the index for +CMGL.
    func textLines(for message: StoredMessage, index: Int?) -> [String] {
        let prefix = index.map { "+CMGL: \($0)," } ?? "+CMGR: "
        let status = "\"\(Self.statusNames[min(message.status, 3)])\""
        guard let pdu = try? SMSPDU.decode(message.pdu, direction: .mobileTerminated) else {
            return [prefix + status + ",\"\",,", Hex.encode(message.pdu)]
        }
        switch pdu.tpdu {
        case .deliver(let d):
            let body: String
            switch d.userData.alphabet {
            case .gsm7: body = encodeString(d.userData.text ?? "")
            default: body = Hex.encode(d.userData.content)
            }
            return [
                prefix + status + ",\"\(encodeString(d.originator.description))\",,\"\(Self.textTimestamp(d.serviceCentreTimestamp))\"",
                body,
            ]
        case .statusReport(let r):
            let fo = (try? r.encoded().first) ?? 0x06
            return [
                prefix + status
                    + ",\(fo),\(r.messageReference),\"\(r.recipient.description)\",\(r.recipient.typeOfAddress),\"\(Self.textTimestamp(r.serviceCentreTimestamp))\",\"\(Self.textTimestamp(r.dischargeTime))\",\(r.status)"
            ]
        case .submit(let s):
            return [prefix + status + ",\"\(s.destination.description)\",", s.userData.text ?? Hex.encode(s.userData.content)]
        }
    }

    /// Builds the SMS-SUBMIT for text typed after `AT+CMGS="<da>"`, using the AT+CSMP settings.
    func textModeSubmit(destination: String, typed: [UInt8]) -> SMSSubmit? {
        let (csmp, charset) = state.withLock { ($0.csmp, $0.characterSet) }
        let raw = String(decoding: typed, as: UTF8.self)
        let text = charset == "UCS2" || charset == "HEX" ? decodeString(raw) : raw
        let firstOctet = UInt8(truncatingIfNeeded: csmp[0])
        let dcs = DataCodingScheme(rawValue: UInt8(truncatingIfNeeded: csmp[3]))
        guard let userData = try? UserData(text: text, alphabet: dcs.alphabet == .ucs2 ? .ucs2 : nil) else { return nil }
        return SMSSubmit(
            destination: PhoneAddress(decodeString(destination)), userData: userData,
            statusReportRequest: firstOctet & 0x20 != 0,
            validityPeriod: firstOctet & 0x18 == 0x10 ? .relative(UInt8(truncatingIfNeeded: csmp[1])) : nil,
            protocolIdentifier: UInt8(truncatingIfNeeded: csmp[2]))
    }
}
