public import Foundation

/// When a share expires, as a person gives it: a duration from now (`90s`, `30m`, `12h`, `7d`,
/// `2w`) or a time (ISO 8601 with a zone, `2027-01-31T18:00:00Z`, or a day, `2027-01-31`, meaning
/// its start in UTC).
public enum ShareExpiry {
    /// The time `text` names, counted from `now` for a duration.
    ///
    /// - Throws: ``VaultError/invalid(_:)`` for anything else, or a time not after `now`.
    public static func parse(_ text: String, now: Date) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        var time: Date?
        if let unit = trimmed.last.flatMap({ units[$0] }), let count = Int(trimmed.dropLast()), count > 0, count <= 36_500 * 86_400 {
            time = now.addingTimeInterval(Double(count) * unit)
        } else if let instant = try? Date.ISO8601FormatStyle().parse(trimmed) {
            time = instant
        } else if let day = try? Date.ISO8601FormatStyle().year().month().day().parse(trimmed) {
            time = day
        }
        guard let time else {
            throw VaultError.invalid(
                "\"\(text)\" is neither a duration (90s, 30m, 12h, 7d, 2w) nor a time (2027-01-31T18:00:00Z or 2027-01-31); give one of those."
            )
        }
        guard time > now else { throw VaultError.invalid("The expiry \(text) is not in the future; give a later time or a duration.") }
        return time
    }
}
