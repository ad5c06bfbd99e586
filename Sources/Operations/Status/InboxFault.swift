public import Foundation

extension GatewayStatus {
    /// Received SMS the running daemon cannot record for a reason other than its storage (the
    /// store refused them as breaking one of its rules: a fault of smsgw). They stay on the modems
    /// and are read again with a growing pause; unlike ``StoreRefusal`` no free disk space helps,
    /// and they keep a SIM's slots until the fault is fixed.
    ///
    /// Its JSON is `{"since","waiting","error"}`.
    public struct InboxFault: Sendable, Equatable, Codable {
        /// When the first of them could not be recorded in this episode.
        public var since: Date
        /// How many the last reads of the modems left on them.
        public var waiting: Int
        /// The store's last refusal of one, in a sentence.
        public var error: String

        public init(since: Date, waiting: Int, error: String) {
            self.since = since
            self.waiting = waiting
            self.error = error
        }

        /// What it means, in words no front end owns, with `since` as ISO 8601 in the local zone.
        public var sentence: String {
            "\(waiting) received SMS cannot be recorded since \(OperationsJSON.timestamp(since)) (\(error)): a fault of smsgw, not of the disk; they wait on the modem, taking its storage, and are tried again. Report it with the daemon's log."
        }
    }
}
