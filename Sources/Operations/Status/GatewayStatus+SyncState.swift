public import Foundation

extension GatewayStatus {
    /// A contact's synchronisation: fine, waiting for a handshake answer, or failing, with what a
    /// person should do about it.
    ///
    /// Its JSON is `{"state","consecutiveFailures","advice","action","resyncCode","keysRestoredAt"}`:
    /// `advice` the ``SyncAdvice/sentence`` (naming no front end's command) or `null`, `action` the
    /// ``SyncAdvice/Action`` or `null`, `resyncCode` the handshake's code to confirm or `null`,
    /// `keysRestoredAt` when this side's keys came back from a backup, until a resync completes, or `null`.
    public struct SyncState: Sendable, Equatable, Codable {
        /// The state as a word every front end shows; its raw value is the JSON spelling.
        public enum State: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
            case ok
            case notPaired = "not paired"
            /// The peer asks for a resync; the operator accepts or rejects it.
            case resyncRequested = "resync requested"
            /// This side asked; the handshake is repeated until the peer answers.
            case resyncPending = "resync pending"
            /// This side's handshake went unanswered every time it was sent.
            case resyncUnanswered = "resync unanswered"
            /// Messages in a row failed verification, or this side's keys were restored from a
            /// backup (``SyncState/keysRestoredAt``); the advice says which.
            case failing

            public var description: String { rawValue }
        }

        public var state: State
        /// Consecutive incoming messages that failed verification.
        public var consecutiveFailures: Int
        /// What to do, when something is to be done; each front end renders it in its own words.
        public var advice: SyncAdvice?
        /// When a restore put this side's keys for the contact back to a backup's; nil once a
        /// resync (or a manual re-pairing) completed, or when none was restored.
        public var keysRestoredAt: Date?

        public init(state: State, consecutiveFailures: Int, advice: SyncAdvice?, keysRestoredAt: Date? = nil) {
            self.state = state
            self.consecutiveFailures = consecutiveFailures
            self.advice = advice
            self.keysRestoredAt = keysRestoredAt
        }

        /// Whether nothing needs attention.
        public var isOK: Bool { state == .ok }

        enum CodingKeys: String, CodingKey { case state, consecutiveFailures, advice, action, resyncCode, keysRestoredAt }

        // By hand so that no advice is `null`, not a missing key, and the typed advice round-trips
        // (the CLI reads the daemon's status as this JSON).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
            try container.encode(advice?.sentence, forKey: .advice)
            try container.encode(advice?.action, forKey: .action)
            try container.encode(advice?.resyncCode, forKey: .resyncCode)
            try container.encode(keysRestoredAt, forKey: .keysRestoredAt)
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            state = try container.decode(State.self, forKey: .state)
            consecutiveFailures = try container.decode(Int.self, forKey: .consecutiveFailures)
            let action = try container.decodeIfPresent(SyncAdvice.Action.self, forKey: .action)
            let code = try container.decodeIfPresent(String.self, forKey: .resyncCode)
            keysRestoredAt = try container.decodeIfPresent(Date.self, forKey: .keysRestoredAt)
            advice = action.flatMap {
                SyncAdvice($0, resyncCode: code, failures: consecutiveFailures, keysRestoredAt: keysRestoredAt)
            }
        }
    }
}
