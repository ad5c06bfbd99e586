public import Foundation

extension GatewayStatus {
    /// The automatic backups (`[backup]`): where they go, the last that worked, how many the
    /// directory holds, and from the running daemon the last error while the latest attempt
    /// failed and when the next is due (with no daemon, as the directory has them:
    /// ``AutomaticBackups/status(directory:intervalSeconds:keep:now:)``).
    ///
    /// Its JSON is `{"directory","intervalSeconds","keep","count","lastSuccessAt","lastFile","lastAttemptAt","lastError","consecutiveFailures","nextDueAt","overdue"}`,
    /// every key present (`null` where there is nothing).
    public struct BackupStatus: Sendable, Equatable, Codable {
        /// The directory the backups go to.
        public var directory: String
        /// Seconds between two backups.
        public var intervalSeconds: Double
        /// How many backups are kept.
        public var keep: Int
        /// How many backups (named as the daemon names them) the directory holds; nil when it
        /// could not be read, or from a daemon that did not say.
        public var count: Int?
        /// When the newest backup was written (this run's, or the newest the directory held at
        /// start-up); nil when there is none.
        public var lastSuccessAt: Date?
        /// The newest backup's path; nil when there is none.
        public var lastFile: String?
        /// When this run last tried; nil before its first attempt.
        public var lastAttemptAt: Date?
        /// Why the latest attempt failed; nil when it worked (or none was made yet).
        public var lastError: String?
        /// Attempts that failed since the last that worked.
        public var consecutiveFailures: Int
        /// When the next attempt is due.
        public var nextDueAt: Date?
        /// Whether the newest backup is older than twice the interval (or none exists after the
        /// daemon ran that long), as of the status's reading.
        public var overdue: Bool

        public init(
            directory: String, intervalSeconds: Double, keep: Int, count: Int? = nil, lastSuccessAt: Date? = nil, lastFile: String? = nil,
            lastAttemptAt: Date? = nil, lastError: String? = nil, consecutiveFailures: Int = 0, nextDueAt: Date? = nil,
            overdue: Bool = false
        ) {
            self.directory = directory
            self.intervalSeconds = intervalSeconds
            self.keep = keep
            self.count = count
            self.lastSuccessAt = lastSuccessAt
            self.lastFile = lastFile
            self.lastAttemptAt = lastAttemptAt
            self.lastError = lastError
            self.consecutiveFailures = consecutiveFailures
            self.nextDueAt = nextDueAt
            self.overdue = overdue
        }

        enum CodingKeys: String, CodingKey {
            case directory, intervalSeconds, keep, count, lastSuccessAt, lastFile, lastAttemptAt, lastError, consecutiveFailures, nextDueAt,
                overdue
        }

        // By hand so that what is missing is `null`, not a missing key.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(directory, forKey: .directory)
            try container.encode(intervalSeconds, forKey: .intervalSeconds)
            try container.encode(keep, forKey: .keep)
            try container.encode(count, forKey: .count)
            try container.encode(lastSuccessAt, forKey: .lastSuccessAt)
            try container.encode(lastFile, forKey: .lastFile)
            try container.encode(lastAttemptAt, forKey: .lastAttemptAt)
            try container.encode(lastError, forKey: .lastError)
            try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
            try container.encode(nextDueAt, forKey: .nextDueAt)
            try container.encode(overdue, forKey: .overdue)
        }

        /// What needs the operator's attention, in words no front end owns: the latest attempt
        /// failed (its reason says what to do), or the newest backup is overdue; nil while backups work.
        /// Without the paths (``GatewayStatus/withoutPaths()``) it says what failed and when only.
        public var warning: String? {
            let next = nextDueAt.map { "; the next attempt is at \(OperationsJSON.timestamp($0))" } ?? ""
            let place = directory.isEmpty ? "" : " to \(directory)"
            if lastError != nil || (directory.isEmpty && consecutiveFailures > 0) {
                let attempts = consecutiveFailures == 1 ? "The last automatic backup" : "The last \(consecutiveFailures) automatic backups"
                let last = lastSuccessAt.map { "The newest backup is from \(OperationsJSON.timestamp($0))" } ?? "There is none yet"
                let reason = lastError.map { ": " + ($0.hasSuffix(".") ? $0 : $0 + ".") } ?? "; an operator sees why."
                return "\(attempts)\(place) failed\(reason) \(last)\(next)."
            }
            guard overdue else { return nil }
            let last = lastSuccessAt.map { "the newest is from \(OperationsJSON.timestamp($0))" } ?? "there is none yet"
            return "No automatic backup\(place) was written for over twice its interval; \(last)\(next)."
        }

        /// Whether a backup (or, with none, the daemon's start) at `since` is overdue at `now`:
        /// older than twice `interval`.
        public static func isOverdue(since: Date, interval: Double, now: Date) -> Bool {
            now.timeIntervalSince(since) > 2 * interval
        }
    }
}

extension KeyedDecodingContainer {
    /// A missing backup (from an smsgw that did not report it) decodes as off, as `null` does.
    public func decode(_ type: GatewayStatus.Backups.Type, forKey key: Key) throws -> GatewayStatus.Backups {
        GatewayStatus.Backups(try decodeIfPresent(GatewayStatus.BackupStatus.self, forKey: key))
    }
}

extension GatewayStatus {
    /// The backups of ``GatewayStatus/backup``, encoded as their object or `null` (off, or no
    /// daemon runs), never left out.
    public struct Backups: Sendable, Equatable, Codable {
        /// The backups' state; nil when they are off or no daemon runs.
        public var status: BackupStatus?

        public init(_ status: BackupStatus?) {
            self.status = status
        }

        /// The status's ``BackupStatus/warning``; nil when backups are off or work.
        public var warning: String? { status?.warning }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            status = container.decodeNil() ? nil : try container.decode(BackupStatus.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(status)
        }
    }
}
