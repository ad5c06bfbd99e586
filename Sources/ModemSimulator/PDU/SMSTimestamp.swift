public import Foundation

/// A TP-SCTS / TP-DT / absolute TP-VP value: local time plus the offset from UTC in quarter hours.
public struct SMSTimestamp: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Offset from UTC in quarters of an hour, -79...79.
    public var timeZoneQuarters: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, timeZoneQuarters: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.timeZoneQuarters = timeZoneQuarters
    }

    /// The timestamp of `date` in a time zone `timeZoneQuarters` quarter hours east of UTC.
    public init(date: Date, timeZoneQuarters: Int = 0) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: timeZoneQuarters * 15 * 60) ?? TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        self.init(
            year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1,
            hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0,
            timeZoneQuarters: timeZoneQuarters
        )
    }

    /// The instant this timestamp names, or `nil` if its fields do not form a date.
    public var date: Date? {
        var calendar = Calendar(identifier: .gregorian)
        guard let zone = TimeZone(secondsFromGMT: timeZoneQuarters * 15 * 60) else { return nil }
        calendar.timeZone = zone
        return calendar.date(
            from: DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    public var description: String {
        let sign = timeZoneQuarters < 0 ? "-" : "+"
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second)) \(sign)\(abs(timeZoneQuarters))q"
    }

    /// The seven semi-octet encoded octets (3GPP TS 23.040 §9.2.3.11); years are 2000-2099.
    public var encoded: [UInt8] {
        let quarters = min(abs(timeZoneQuarters), 79)
        var zone = SemiOctets.swappedBCD(quarters)
        if timeZoneQuarters < 0 { zone |= 0x08 }
        return [
            SemiOctets.swappedBCD(year % 100), SemiOctets.swappedBCD(month), SemiOctets.swappedBCD(day),
            SemiOctets.swappedBCD(hour), SemiOctets.swappedBCD(minute), SemiOctets.swappedBCD(second), zone,
        ]
    }

    static func decode(_ reader: inout OctetReader, field: String) throws(PDUError) -> SMSTimestamp {
        let o = try reader.bytes(7, field)
        let zoneDigits = SemiOctets.fromSwappedBCD(o[6] & 0xF7)
        let year = SemiOctets.fromSwappedBCD(o[0])
        return SMSTimestamp(
            year: year < 70 ? 2000 + year : 1900 + year,
            month: SemiOctets.fromSwappedBCD(o[1]), day: SemiOctets.fromSwappedBCD(o[2]),
            hour: SemiOctets.fromSwappedBCD(o[3]), minute: SemiOctets.fromSwappedBCD(o[4]),
            second: SemiOctets.fromSwappedBCD(o[5]),
            timeZoneQuarters: o[6] & 0x08 != 0 ? -zoneDigits : zoneDigits
        )
    }
}
