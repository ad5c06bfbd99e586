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
        let fits =
            withUnsafeMutableBytes(of: &message.pointee.Text) { GammuText.encodeUCS2(sms.text, into: $0) }
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
            if let status = context.sendStatus, status != 0 { throw refused(status) }
            if let cms = context.lastCMSError { throw ModemError.sendRejected(cms: cms) }
            try check(result, "sending an SMS")
        }
        submitted.set()
        while context.sendStatus == nil, ContinuousClock.now < deadline {
            if GSM_ReadDevice(machine, 1) < 0 {
                throw ModemError(
                    .ambiguousSend,
                    "The device failed right after the SMS was handed to the modem, so it may have been sent. Reopen the modem; resend the same text later, never new text for it."
                )
            }
        }
        guard let status = context.sendStatus else {
            throw ModemError.ambiguousSend(after: configuration.callTimeout)
        }
        if status != 0 { throw refused(status) }
        guard context.sendReference >= 0 else {
            if let cms = context.lastCMSError { throw ModemError.sendRejected(cms: cms) }
            throw ModemError(
                .modemFailure,
                "The modem answered ERROR to the SMS without a reason, so it was not sent. Retry later; if it persists, reset the radio.")
        }
        return context.sendReference
    }

    /// The error for a send the status callback reported as refused with `status`.
    private func refused(_ status: Int) -> ModemError {
        ModemError.sendRefused(status: status, cms: context.lastCMSError, cme: context.lastCMEError)
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
        let exact =
            buffer[Int(layout.TPDCS)] == 0x00
            && firstByte & 0x40 == 0
            && (firstByte & 0x20 != 0) == sms.statusReport
            && Int(buffer[Int(layout.TPUDL)]) == sms.septets.count
            && userData == packed
        guard exact else {
            throw ModemError(
                .invalidMessage,
                "libgammu would not send this text bit-exactly as one GSM-7 SMS, so it was not sent. Report this text to the developers.")
        }
    }

    // MARK: Notifications

    /// Reads unsolicited lines and turns what the callbacks collected into events.
    /// - Returns: The events, and `false` if the device failed.
    func pollNotifications() -> (events: [ModemEvent], alive: Bool) {
        guard isConnected else { return ([], true) }
        let alive = GSM_ReadDevice(machine, 0) >= 0
        return (collectedNotifications(), alive)
    }

    /// Whether the callbacks collected something during a call (a +CMTI or +CDS line that came in
    /// while a job read the port) that no event reported yet.
    var hasCollectedNotifications: Bool {
        !context.directReports.isEmpty || !context.directMessages.isEmpty || context.sawDelivery
            || context.storageFullReported || !context.announcedLocations.isEmpty
    }

    /// Turns what the callbacks collected into events, without reading the port.
    func collectedNotifications() -> [ModemEvent] {
        var events: [ModemEvent] = []
        for (reference, status) in context.directReports {
            events.append(.statusReport(reference: reference, status: DeliveryStatus(rawValue: status)))
        }
        context.directReports.removeAll()
        for message in context.directMessages { events.append(.received(message)) }
        context.directMessages.removeAll()
        if context.sawDelivery {
            events.append(.newMessage)
            context.sawDelivery = false
        }
        if context.storageFullReported {
            events.append(.storageFull)
            context.storageFullReported = false
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
        return events
    }
}
