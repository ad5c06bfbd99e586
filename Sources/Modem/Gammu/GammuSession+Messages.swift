import CGammu
import Foundation
import GSM7

extension GammuSession {
    // MARK: Sending

    /// Submits one SMS in PDU mode and waits for `+CMGS` as gammu-smsd does: `GSM_SendSMS`, then
    /// `GSM_ReadDevice` until the send-status callback fires or `deadline` passes.
    /// - Parameters:
    ///   - sms: The validated SMS.
    ///   - deadline: When to give up waiting for the confirmation.
    ///   - submitted: Set once the PDU went to the modem; from then on a timeout is ambiguous.
    /// - Returns: The TP-MR the network assigned.
    func send(_ sms: OutgoingSMS, deadline: ContinuousClock.Instant, submitted: SubmissionFlag) throws(ModemError) -> Int {
        try requireConnection()
        let message = UnsafeMutablePointer<GSM_SMSMessage>.allocate(capacity: 1)
        defer { message.deallocate() }
        UnsafeMutableRawPointer(message).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_SMSMessage>.size)
        GSM_SetDefaultSMSData(message)
        // PDU = SMS_Status_Report is how libgammu asks for TP-SRR on a submit (gammu's `-report`).
        message.pointee.PDU = sms.statusReport ? SMS_Status_Report : SMS_Submit
        message.pointee.Coding = SMS_Coding_Default_No_Compression
        message.pointee.UDH.Type = UDH_NoUDH
        message.pointee.Class = -1
        message.pointee.ReplyViaSameSMSC = 0
        // Location 1: libgammu reads the SIM's SMSC (AT+CSCA?) as gammu-smsd does; its AT driver
        // refuses an empty SMSC address (ERR_EMPTYSMSC).
        message.pointee.SMSC.Location = 1
        let fits = withUnsafeMutableBytes(of: &message.pointee.Text) { GammuText.encodeUCS2(sms.text, into: $0) }
            && withUnsafeMutableBytes(of: &message.pointee.Number) { GammuText.encodeUCS2(sms.number, into: $0) }
        guard fits else { throw ModemError(.invalidMessage, "The text or number is too long for one SMS.") }
        try verifyEncoding(of: message, matches: sms)

        context.resetErrors()
        context.sendStatus = nil
        context.sendReference = -1
        // libgammu 1.42's AT driver returns from GSM_SendSMS right after writing the PDU and Ctrl-Z,
        // without waiting for +CMGS; it fails only before that (no prompt, write error), when
        // nothing can have been sent. So an error here is never ambiguous.
        let result = GSM_SendSMS(machine, message)
        if result != ERR_NONE {
            if let status = context.sendStatus, status != 0 { throw ModemError.sendRejected(cms: status) }
            if let cms = context.lastCMSError { throw ModemError.sendRejected(cms: cms) }
            try check(result, "sending an SMS")
        }
        submitted.set()
        while context.sendStatus == nil, ContinuousClock.now < deadline {
            if GSM_ReadDevice(machine, 1) < 0 {
                throw ModemError(.ambiguousSend, "The device failed right after the SMS was handed to the modem, so it may have been sent. Reopen the modem; resend the same text later, never new text for it.")
            }
        }
        guard let status = context.sendStatus else {
            throw ModemError.ambiguousSend(after: configuration.callTimeout)
        }
        if status != 0 { throw ModemError.sendRejected(cms: status) }
        guard context.sendReference >= 0 else {
            if let cms = context.lastCMSError { throw ModemError.sendRejected(cms: cms) }
            throw ModemError(.modemFailure, "The modem answered ERROR to the SMS without a reason, so it was not sent. Retry later; if it persists, reset the radio.")
        }
        return context.sendReference
    }

    /// Encodes the message with libgammu's own encoder and checks that the TPDU carries exactly our
    /// septets: DCS 0, no UDHI, TP-SRR as asked, TP-UDL and the packed user data bit for bit.
    private func verifyEncoding(of message: UnsafeMutablePointer<GSM_SMSMessage>, matches sms: OutgoingSMS) throws(ModemError) {
        let copy = UnsafeMutablePointer<GSM_SMSMessage>.allocate(capacity: 1)
        defer { copy.deallocate() }
        copy.initialize(to: message.pointee)
        var buffer = [UInt8](repeating: 0, count: 512)
        var length: Int32 = 0
        let layout = smsgw_submit_layout()
        let result = GSM_EncodeSMSFrame(nil, copy, &buffer, layout, &length, 1)
        guard result == ERR_NONE else {
            throw ModemError(.invalidMessage, "libgammu could not encode the SMS (\(String(cString: GSM_ErrorString(result)))).")
        }
        let packed = GSM7.pack(sms.septets)
        let firstByte = buffer[Int(layout.firstbyte)]
        let userData = Array(buffer[Int(layout.Text)..<Int(layout.Text) + packed.count])
        let exact = buffer[Int(layout.TPDCS)] == 0x00
            && firstByte & 0x40 == 0
            && (firstByte & 0x20 != 0) == sms.statusReport
            && Int(buffer[Int(layout.TPUDL)]) == sms.septets.count
            && userData == packed
        guard exact else {
            throw ModemError(.invalidMessage, "libgammu would not send this text bit-exactly as one GSM-7 SMS, so it was not sent. Report this text to the developers.")
        }
    }

    // MARK: Reading

    /// Every message in every folder (SIM and phone memory), via the `GSM_GetNextSMS` loop.
    func readAll() throws(ModemError) -> [StoredMessage] {
        try requireConnection()
        let multi = UnsafeMutablePointer<GSM_MultiSMSMessage>.allocate(capacity: 1)
        defer { multi.deallocate() }
        UnsafeMutableRawPointer(multi).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_MultiSMSMessage>.size)
        var messages: [StoredMessage] = []
        var start = true
        // The previous answer in `multi` tells libgammu where to continue, so it is not cleared.
        for _ in 0..<10_000 {
            context.resetErrors()
            let result = GSM_GetNextSMS(machine, multi, start ? 1 : 0)
            start = false
            if result == ERR_EMPTY { return messages }
            try check(result, "reading messages")
            let count = Int(multi.pointee.Number)
            let parts = Self.parts(of: multi)
            for index in 0..<min(count, Int(GSM_MAX_MULTI_SMS)) {
                messages.append(Self.stored(parts + index))
            }
        }
        return messages
    }

    /// Reads one message by location (after a +CMTI/+CDSI announcement).
    func read(folder: Int, location: Int) throws(ModemError) -> StoredMessage? {
        try requireConnection()
        let multi = UnsafeMutablePointer<GSM_MultiSMSMessage>.allocate(capacity: 1)
        defer { multi.deallocate() }
        UnsafeMutableRawPointer(multi).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_MultiSMSMessage>.size)
        let parts = Self.parts(of: multi)
        parts.pointee.Folder = Int32(folder)
        parts.pointee.Location = Int32(location)
        multi.pointee.Number = 1
        context.resetErrors()
        let result = GSM_GetSMS(machine, multi)
        if result == ERR_EMPTY || result == ERR_INVALIDLOCATION { return nil }
        try check(result, "reading a message")
        return multi.pointee.Number > 0 ? Self.stored(parts) : nil
    }

    /// Deletes the message at `location`.
    func delete(_ location: StoredMessage.Location) throws(ModemError) {
        try requireConnection()
        let message = UnsafeMutablePointer<GSM_SMSMessage>.allocate(capacity: 1)
        defer { message.deallocate() }
        UnsafeMutableRawPointer(message).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_SMSMessage>.size)
        message.pointee.Folder = Int32(location.folder)
        message.pointee.Location = Int32(location.index)
        message.pointee.Memory = Self.memoryType(location.memory)
        context.resetErrors()
        try check(GSM_DeleteSMS(machine, message), "deleting the message at \(location)")
    }

    private static func parts(of multi: UnsafeMutablePointer<GSM_MultiSMSMessage>) -> UnsafeMutablePointer<GSM_SMSMessage> {
        let offset = MemoryLayout<GSM_MultiSMSMessage>.offset(of: \GSM_MultiSMSMessage.SMS)!
        return (UnsafeMutableRawPointer(multi) + offset).assumingMemoryBound(to: GSM_SMSMessage.self)
    }

    static func memoryType(_ memory: StoredMessage.Memory) -> GSM_MemoryType {
        switch memory {
        case .sim: return MEM_SM
        case .phone: return MEM_ME
        case .other: return GSM_MemoryType(rawValue: 0)
        }
    }

    static func memory(_ type: GSM_MemoryType) -> StoredMessage.Memory {
        switch type {
        case MEM_SM: return .sim
        case MEM_ME: return .phone
        default: return .other
        }
    }

    /// Converts one decoded libgammu message into a ``StoredMessage``.
    static func stored(_ sms: UnsafeMutablePointer<GSM_SMSMessage>) -> StoredMessage {
        let location = StoredMessage.Location(
            folder: Int(sms.pointee.Folder), index: Int(sms.pointee.Location), memory: memory(sms.pointee.Memory)
        )
        let number = withUnsafeBytes(of: &sms.pointee.Number) { GammuText.decodeUCS2($0) }
        let coding: StoredMessage.Coding
        switch sms.pointee.Coding {
        case SMS_Coding_Default_No_Compression: coding = .gsm7
        case SMS_Coding_Unicode_No_Compression: coding = .ucs2
        case SMS_Coding_8bit: coding = .eightBit
        default: coding = .other
        }
        let isReport = sms.pointee.PDU == SMS_Status_Report
        let rawText: [UInt8] = withUnsafeBytes(of: &sms.pointee.Text) { bytes in
            coding == .eightBit
                ? Array(bytes.prefix(max(0, min(Int(sms.pointee.Length), bytes.count))))
                : GammuText.rawUCS2(bytes)
        }
        let text = coding == .eightBit
            ? GammuText.hex(rawText)
            : withUnsafeBytes(of: &sms.pointee.Text) { GammuText.decodeUCS2($0) }
        let timestamp = date(sms.pointee.DateTime)
        var concatenation: StoredMessage.Concatenation?
        let udh = sms.pointee.UDH
        if udh.Type == UDH_ConcatenatedMessages || udh.Type == UDH_ConcatenatedMessages16bit {
            let reference = udh.Type == UDH_ConcatenatedMessages16bit ? udh.ID16bit : udh.ID8bit
            concatenation = .init(reference: Int(reference), part: Int(udh.PartNumber), total: Int(udh.AllParts))
        }
        let udhBytes: [UInt8] = withUnsafeBytes(of: &sms.pointee.UDH.Text) {
            Array($0.prefix(max(0, min(Int(udh.Length), $0.count))))
        }

        var hash = FNV1a64()
        hash.add(Array(number.utf8)); hash.separate()
        let dt = sms.pointee.DateTime
        for field in [dt.Year, dt.Month, dt.Day, dt.Hour, dt.Minute, dt.Second, dt.Timezone] { hash.add(Int(field)) }
        hash.separate()
        hash.add(Int(sms.pointee.Coding.rawValue)); hash.add(Int(sms.pointee.PDU.rawValue)); hash.separate()
        hash.add(udhBytes); hash.separate()
        hash.add(rawText); hash.separate()
        if isReport {
            hash.add(Int(sms.pointee.MessageReference))
            hash.add(Int(sms.pointee.DeliveryStatus))
        }

        return StoredMessage(
            location: location,
            number: number,
            text: isReport ? "" : text,
            coding: coding,
            timestamp: timestamp,
            concatenation: concatenation,
            deliveryStatus: isReport ? DeliveryStatus(rawValue: sms.pointee.DeliveryStatus) : nil,
            messageReference: isReport ? Int(sms.pointee.MessageReference) : nil,
            fingerprint: hash.hex
        )
    }

    /// A libgammu date-time (local time plus a zone offset in seconds) as a `Date`.
    static func date(_ value: GSM_DateTime) -> Date? {
        guard value.Year > 0, (1...12).contains(value.Month), (1...31).contains(value.Day) else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(secondsFromGMT: Int(value.Timezone))
        components.year = Int(value.Year)
        components.month = Int(value.Month)
        components.day = Int(value.Day)
        components.hour = Int(value.Hour)
        components.minute = Int(value.Minute)
        components.second = Int(value.Second)
        return components.date
    }

    // MARK: Notifications

    /// Reads unsolicited lines and turns what the callbacks collected into events.
    /// - Returns: The events, and `false` if the device failed.
    func pollNotifications() -> (events: [ModemEvent], alive: Bool) {
        guard isConnected else { return ([], true) }
        let alive = GSM_ReadDevice(machine, 0) >= 0
        var events: [ModemEvent] = []
        for (reference, status) in context.directReports {
            events.append(.statusReport(reference: reference, status: DeliveryStatus(rawValue: status)))
        }
        context.directReports.removeAll()
        if context.sawDelivery {
            events.append(.newMessage)
            context.sawDelivery = false
        }
        let announced = context.announcedLocations
        context.announcedLocations.removeAll()
        for entry in announced {
            let message = try? read(folder: entry.folder, location: entry.location)
            if let message, let reference = message.messageReference, let status = message.deliveryStatus {
                events.append(.statusReport(reference: reference, status: status))
            } else {
                events.append(.newMessage)
            }
        }
        return (events, alive)
    }
}
