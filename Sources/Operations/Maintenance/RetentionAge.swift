import Foundation

/// How old a logged message must be for ``LogRetention/prune(_:olderThanDays:now:progress:stopRequested:)`` to delete
/// it: a whole number of days, 0 or more, as a front end reads it from its user.
public struct RetentionAge: Sendable, Hashable, CustomStringConvertible {
    /// Whole days; 0 means every message not waiting to be sent.
    public let days: Int

    /// - Throws: ``MaintenanceError/negativeAge(days:)`` for fewer than 0 days.
    public init(days: Int) throws(MaintenanceError) {
        guard days >= 0 else { throw .negativeAge(days: days) }
        self.days = days
    }

    /// The age written as a number of days (`30`, ` 7 `); nil for anything else or a negative one.
    public init?(parsing text: String) {
        guard let days = Int(text.trimmingCharacters(in: .whitespaces)), let age = try? RetentionAge(days: days) else {
            return nil
        }
        self = age
    }

    public var description: String { days == 1 ? "1 day" : "\(days) days" }
}
