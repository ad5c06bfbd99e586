public import Foundation

extension GatewayStatus {
    /// The store refuses the running daemon's writes (a full disk, a read-only file system, a lost
    /// database server): received SMS cannot be recorded, so they stay on the modems and are read
    /// again after a pause, until a write succeeds.
    ///
    /// Its JSON is `{"since","waiting","error"}`.
    public struct StoreRefusal: Sendable, Equatable, Codable {
        /// When the store first refused a write (a received SMS, an outbox, event, status or
        /// heartbeat write) in this episode.
        public var since: Date
        /// Received SMS the last reads of the modems could not record (they wait on the modems).
        public var waiting: Int
        /// The store's last refusal, in a sentence.
        public var error: String?

        public init(since: Date, waiting: Int, error: String?) {
            self.since = since
            self.waiting = waiting
            self.error = error
        }

        enum CodingKeys: String, CodingKey { case since, waiting, error }

        // By hand so that no error is `null`, not a missing key.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(since, forKey: .since)
            try container.encode(waiting, forKey: .waiting)
            try container.encode(error, forKey: .error)
        }

        /// What it means, in words no front end owns, with `since` as ISO 8601 in the local zone.
        public var sentence: String {
            let cause = error.map { " (\($0))" } ?? ""
            return
                "The store refuses writes since \(OperationsJSON.timestamp(since))\(cause); received SMS wait on the modem and are recorded once it takes writes again (free disk space, or bring the database back)."
        }
    }
}
