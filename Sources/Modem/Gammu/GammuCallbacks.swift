import CGammu
import Logging

/// What libgammu's callbacks report during a call, collected for the code that made the call.
///
/// libgammu invokes its callbacks (send status, incoming SMS, debug log) synchronously inside the
/// call that reads the device, so on the modem thread only; this object is reached through the
/// callbacks' `user_data` pointer and never crosses threads. The session that owns it outlives every
/// call that can fire a callback.
final class GammuCallbackContext {
    /// The send-status callback's status: 0 for OK, a CMS number for `+CMS ERROR`, `nil` until it fires.
    var sendStatus: Int?
    /// The TP-MR from `+CMGS: <mr>`, or -1.
    var sendReference = -1
    /// The last `+CMS ERROR` number seen in libgammu's debug output since ``resetErrors()``.
    var lastCMSError: Int?
    /// The last `+CME ERROR` number seen in libgammu's debug output since ``resetErrors()``.
    var lastCMEError: Int?
    /// Locations announced by +CMTI / +CDSI, to read after the device read that announced them.
    var announcedLocations: [(folder: Int, location: Int, memory: GSM_MemoryType)] = []
    /// Status reports delivered directly (+CDS), as (reference, status).
    var directReports: [(Int, UInt8)] = []
    /// SMS the modem handed over directly (+CMT) without storing them: they exist only here.
    var directMessages: [StoredMessage] = []
    /// Whether an announcement came in that named no location (read the storage to find it).
    var sawDelivery = false
    /// Whether the modem said its SMS storage is full (an unsolicited "SMSFULL"/"MEMFULL" line).
    var storageFullReported = false
    /// Where libgammu's debug lines go at trace level; `nil` unless the logger logs at `.trace`.
    var traceLogger: Logger?
    /// Set while the PIN is being entered: its command, echo and answer never reach the trace.
    var traceSuppressed = false
    /// While set, every complete debug line is collected here, unredacted (bounded), to keep a
    /// modem's answer as evidence; it never goes to a log.
    var capture: [String]?
    private var redactor = TraceRedactor()
    private var traceLine: [UInt8] = []

    func resetErrors() {
        lastCMSError = nil
        lastCMEError = nil
    }

    /// Scans one piece of libgammu debug text for CMS/CME error numbers (libgammu keeps the AT
    /// driver's last error code private; its debug output is where it shows). The text goes to the
    /// trace logger only when one is set and no PIN is being entered.
    func scanDebugText(_ text: UnsafePointer<CChar>) {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        if let cms = Self.number(after: Array("CMS ERROR".utf8), in: bytes) { lastCMSError = cms }
        if let cme = Self.number(after: Array("CME ERROR".utf8), in: bytes) { lastCMEError = cme }
        if Self.find(Array("SMSFULL".utf8), in: bytes) != nil || Self.find(Array("MEMFULL".utf8), in: bytes) != nil {
            storageFullReported = true
        }
        guard capture != nil || (traceLogger != nil && !traceSuppressed) else { return }
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                emit(String(decoding: traceLine, as: UTF8.self))
                traceLine.removeAll(keepingCapacity: true)
            } else if traceLine.count < 4096 {
                traceLine.append(byte)
            }
        }
    }

    /// One complete debug line: into the capture as it is, into the trace only redacted.
    private func emit(_ line: String) {
        if capture != nil, capture!.count < 200 { capture!.append(line) }
        guard let traceLogger, !traceSuppressed, let safe = redactor.redact(line) else { return }
        traceLogger.trace("libgammu: \(safe)")
    }

    /// Drops any partial trace line (after the PIN was entered).
    func discardTraceLine() { traceLine.removeAll() }

    /// Where `marker` (upper case) first occurs in `bytes`, case-insensitively.
    static func find(_ marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        var start = from
        while start + marker.count <= bytes.count {
            var matches = true
            for offset in 0..<marker.count where uppercase(bytes[start + offset]) != marker[offset] {
                matches = false
                break
            }
            if matches { return start }
            start += 1
        }
        return nil
    }

    /// Finds `marker` (case-insensitively) and parses the decimal number after it, skipping ':' and spaces.
    static func number(after marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var from = 0
        while let start = find(marker, in: bytes, from: from) {
            from = start + 1
            var index = start + marker.count
            while index < bytes.count, bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: " ") {
                index += 1
            }
            var value = 0
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 6 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            if digits > 0 { return value }
        }
        return nil
    }

    private static func uppercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
    }
}

@available(*, unavailable)
extension GammuCallbackContext: Sendable {}

private func context(_ user: UnsafeMutableRawPointer?) -> GammuCallbackContext? {
    guard let user else { return nil }
    return Unmanaged<GammuCallbackContext>.fromOpaque(user).takeUnretainedValue()
}

/// `SendSMSStatusCallback`: fires from the device read that sees `+CMGS` or `+CMS ERROR`.
func gammuSendStatusCallback(
    _ machine: OpaquePointer?, _ status: Int32, _ reference: Int32, _ user: UnsafeMutableRawPointer?
) {
    guard let context = context(user) else { return }
    context.sendStatus = Int(status)
    context.sendReference = Int(reference)
}

/// `IncomingSMSCallback`: +CMTI/+CDSI give only a location (and no PDU type), +CMT/+CDS a
/// decoded message whose other fields (the location among them) libgammu leaves unset.
func gammuIncomingSMSCallback(
    _ machine: OpaquePointer?, _ sms: UnsafeMutablePointer<GSM_SMSMessage>?, _ user: UnsafeMutableRawPointer?
) {
    guard let context = context(user), let sms else { return }
    if sms.pointee.PDU == SMS_Deliver {
        // +CMT (+CMTI leaves the type unset): the modem stored nothing; this callback is the only copy.
        context.directMessages.append(GammuSession.stored(sms, location: .notStored))
    } else if sms.pointee.Location > 0 {
        // +CMTI / +CDSI: the content is read after the device read returns.
        context.announcedLocations.append((Int(sms.pointee.Folder), Int(sms.pointee.Location), sms.pointee.Memory))
    } else if sms.pointee.PDU == SMS_Status_Report {
        context.directReports.append((Int(sms.pointee.MessageReference), sms.pointee.DeliveryStatus))
    } else {
        context.sawDelivery = true
    }
}

/// `GSM_Log_Function`: libgammu's debug output, scanned for error numbers and then dropped.
func gammuDebugCallback(_ text: UnsafePointer<CChar>?, _ user: UnsafeMutableRawPointer?) {
    guard let text, let context = context(user) else { return }
    context.scanDebugText(text)
}
