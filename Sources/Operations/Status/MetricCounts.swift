import SMSCipher
public import Store

/// Why an incoming message did not open, as `smsgw_decrypt_failures{reason}` names it: read back
/// from the error sentence the receive path logs with a rejected message.
public enum DecryptFailureReason: String, Sendable, Hashable, CaseIterable {
    /// Altered, meant for another contact, or too old (``SMSCipher/CipherError/notAuthentic``).
    case notAuthentic = "not_authentic"
    /// Authentic but too far ahead of the last one received.
    case beyondWindow = "beyond_window"
    /// Not 160 characters of the cipher alphabet, or not a valid ciphertext.
    case malformed
    /// A resync message replayed or from an earlier resync.
    case replayedHandshake = "replayed_handshake"
    /// A second, different answer to this side's resync.
    case conflictingHandshake = "conflicting_handshake"
    /// This side's own SMS, come back from the contact's number (``IncomingMessage/reflectedNote(message:contact:)``).
    case ownMessage = "own_message"
    /// Any other sentence (a newer version's, or none).
    case other

    /// The start each reason's sentences share: the whole sentence of a case without values, the
    /// part before the first value otherwise (so the sentences can change without this drifting).
    private static let stems: [(DecryptFailureReason, String)] = [
        (.notAuthentic, CipherError.notAuthentic.description),
        (.beyondWindow, stem(.beyondWindow(ahead: 1), .beyondWindow(ahead: 2))),
        (.malformed, stem(.malformed(.wrongLength(1)), .malformed(.wrongLength(2)))),
        (.malformed, stem(.malformed(.invalidCharacter("a", position: 1)), .malformed(.invalidCharacter("b", position: 2)))),
        (.malformed, CipherError.malformed(.outOfRange).description),
        (.replayedHandshake, CipherError.replayedHandshake.description),
        (.conflictingHandshake, CipherError.conflictingHandshake.description),
        (
            .ownMessage,
            stem(IncomingMessage.reflectedNote(message: 1, contact: "a"), IncomingMessage.reflectedNote(message: 2, contact: "b"))
        ),
    ]

    private static func stem(_ one: CipherError, _ other: CipherError) -> String {
        stem(one.description, other.description)
    }

    private static func stem(_ one: String, _ other: String) -> String {
        String(zip(one, other).prefix { $0 == $1 }.map(\.0))
    }

    /// The reason a logged error sentence gives.
    public init(error: String?) {
        guard let error else {
            self = .other
            return
        }
        self = Self.stems.first { error.hasPrefix($0.1) }?.0 ?? .other
    }

    /// Rejected incoming messages in the log by reason (every reason present, 0 when none).
    public static func counts(in reader: StoreReader) throws -> [DecryptFailureReason: Int] {
        var counts = Dictionary(uniqueKeysWithValues: allCases.map { ($0, 0) })
        for row in try reader.rejectedMessageErrors() { counts[DecryptFailureReason(error: row.error), default: 0] += row.count }
        return counts
    }
}

/// Where a webhook delivery stands, as `smsgw_webhook_deliveries{outcome}` names it.
public enum WebhookOutcome: String, Sendable, Hashable, CaseIterable {
    /// Not tried yet.
    case pending
    /// A 2xx answered it.
    case delivered
    /// Tried and failed (another status, a timeout, no connection); it will be tried again.
    case retrying
    /// Its retries ran out (24 hours); it stays failed until redelivered by hand.
    case gaveUp = "gave_up"
    /// Waiting because a 410 Gone disabled its endpoint.
    case disabled

    /// The deliveries the store keeps, by outcome (every outcome present, 0 when none).
    public static func counts(in reader: StoreReader) throws -> [WebhookOutcome: Int] {
        var counts = Dictionary(uniqueKeysWithValues: allCases.map { ($0, 0) })
        for row in try reader.webhookDeliveryCounts() {
            let outcome: WebhookOutcome =
                switch row.state {
                case .delivered: .delivered
                case .failed: .gaveUp
                case .pending where row.endpointDisabled: .disabled
                case .pending: row.attempted ? .retrying : .pending
                }
            counts[outcome, default: 0] += row.count
        }
        return counts
    }
}
