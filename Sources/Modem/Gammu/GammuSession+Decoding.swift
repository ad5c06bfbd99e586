import CGammu
import Crypto
import Foundation

/// Turning libgammu's decoded messages into values: ``StoredMessage``, locations, fingerprints.
extension GammuSession {
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

    static func location(of sms: UnsafeMutablePointer<GSM_SMSMessage>) -> StoredMessage.Location {
        StoredMessage.Location(folder: Int(sms.pointee.Folder), index: Int(sms.pointee.Location), memory: memory(sms.pointee.Memory))
    }

    /// Converts one decoded libgammu message into a ``StoredMessage``.
    static func stored(_ sms: UnsafeMutablePointer<GSM_SMSMessage>, location: StoredMessage.Location? = nil) -> StoredMessage {
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
        let text =
            coding == .eightBit
            ? GammuText.hex(rawText)
            : withUnsafeBytes(of: &sms.pointee.Text) { GammuText.decodeUCS2($0) }
        var concatenation: StoredMessage.Concatenation?
        let udh = sms.pointee.UDH
        if udh.Type == UDH_ConcatenatedMessages || udh.Type == UDH_ConcatenatedMessages16bit {
            let reference = udh.Type == UDH_ConcatenatedMessages16bit ? udh.ID16bit : udh.ID8bit
            concatenation = .init(reference: Int(reference), part: Int(udh.PartNumber), total: Int(udh.AllParts))
        }
        let udhBytes: [UInt8] = withUnsafeBytes(of: &sms.pointee.UDH.Text) {
            Array($0.prefix(max(0, min(Int(udh.Length), $0.count))))
        }

        var hash = FieldHash()
        hash.add(Array(number.utf8))
        let dt = sms.pointee.DateTime
        hash.add([dt.Year, dt.Month, dt.Day, dt.Hour, dt.Minute, dt.Second, dt.Timezone].map(Int.init))
        hash.add([Int(sms.pointee.Coding.rawValue), Int(sms.pointee.PDU.rawValue)])
        hash.add(udhBytes)
        hash.add(rawText)
        if isReport { hash.add([Int(sms.pointee.MessageReference), Int(sms.pointee.DeliveryStatus)]) }

        return StoredMessage(
            location: location ?? Self.location(of: sms),
            number: number,
            text: isReport ? "" : text,
            coding: coding,
            timestamp: date(sms.pointee.DateTime),
            concatenation: concatenation,
            deliveryStatus: isReport ? DeliveryStatus(rawValue: sms.pointee.DeliveryStatus) : nil,
            messageReference: isReport ? Int(sms.pointee.MessageReference) : nil,
            fingerprint: hash.fingerprint
        )
    }

    /// An entry that could not be read, with the modem's answer taken from libgammu's debug lines.
    static func unreadable(at location: StoredMessage.Location, captured: [String], error: GSM_Error) -> UnreadableEntry {
        let evidence = DebugText.answer(in: captured)
        var hash = FieldHash()
        hash.add([location.index])
        for line in evidence { hash.add(Array(line.utf8)) }
        let reason = GSM_ErrorName(error).map { String(cString: $0) } ?? "\(error.rawValue)"
        return UnreadableEntry(location: location, evidence: evidence, reason: reason, fingerprint: hash.fingerprint)
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
}

/// SHA-256 over length-prefixed fields: the fingerprint of a stored message, stable across
/// processes, and not one a sender can aim at another message's (as FNV-1a could be).
struct FieldHash {
    private var hasher = SHA256()

    /// Adds one field; its length goes first, so ("ab","c") and ("a","bc") differ.
    mutating func add(_ bytes: [UInt8]) {
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { hasher.update(bufferPointer: $0) }
        hasher.update(data: bytes)
    }

    mutating func add(_ numbers: [Int]) {
        add(numbers.flatMap { number in withUnsafeBytes(of: Int64(number).littleEndian) { Array($0) } })
    }

    /// "sha256:" and the digest in lowercase hex.
    var fingerprint: String { "sha256:" + GammuText.hex(hasher.finalize()) }
}
