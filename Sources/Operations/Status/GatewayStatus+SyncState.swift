extension GatewayStatus {
    /// A contact's synchronisation: fine, waiting for a handshake answer, or failing, with what a
    /// person should do about it.
    ///
    /// Its JSON is `{"state","consecutiveFailures","advice","action","resyncCode"}`: `advice` the
    /// ``SyncAdvice/sentence`` (naming no front end's command) or `null`, `action` the
    /// ``SyncAdvice/Action`` or `null`, `resyncCode` the handshake's code to confirm or `null`.
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
            /// Messages in a row failed verification.
            case failing

            public var description: String { rawValue }
        }

        public var state: State
        /// Consecutive incoming messages that failed verification.
        public var consecutiveFailures: Int
        /// What to do, when something is to be done; each front end renders it in its own words.
        public var advice: SyncAdvice?

        public init(state: State, consecutiveFailures: Int, advice: SyncAdvice?) {
            self.state = state
            self.consecutiveFailures = consecutiveFailures
            self.advice = advice
        }

        /// Whether nothing needs attention.
        public var isOK: Bool { state == .ok }

        enum CodingKeys: String, CodingKey { case state, consecutiveFailures, advice, action, resyncCode }

        // By hand so that no advice is `null`, not a missing key, and the typed advice round-trips
        // (the CLI reads the daemon's status as this JSON).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
            try container.encode(advice?.sentence, forKey: .advice)
            try container.encode(advice?.action, forKey: .action)
            try container.encode(advice?.resyncCode, forKey: .resyncCode)
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            state = try container.decode(State.self, forKey: .state)
            consecutiveFailures = try container.decode(Int.self, forKey: .consecutiveFailures)
            let action = try container.decodeIfPresent(SyncAdvice.Action.self, forKey: .action)
            let code = try container.decodeIfPresent(String.self, forKey: .resyncCode)
            advice = action.flatMap { SyncAdvice($0, resyncCode: code, failures: consecutiveFailures) }
        }
    }
}
