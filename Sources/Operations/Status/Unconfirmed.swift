public import Foundation
public import Store

extension GatewayStatus {
    /// Text SMS that went out and have had no confirmation, neither a delivery report from the
    /// network nor an acknowledgement from the peer's gateway, for longer than ``threshold``,
    /// though one could have come (``confirmable(reportRequested:to:)``), and that no operator
    /// marked checked (``markChecked(_:by:address:store:now:)``). A network that drops an SMS
    /// says nothing; this is how an operator learns of it.
    ///
    /// Its JSON is `{"count","oldestSentAt","thresholdSeconds"}`; the status's `unconfirmed` is
    /// absent while there are none.
    public struct Unconfirmed: Sendable, Equatable, Codable {
        /// How long a sent SMS may wait for its delivery report before it counts: 6 hours. A
        /// report comes within minutes of the SMS reaching the phone, and a phone switched off or
        /// out of coverage for a few hours is common; a network keeps an SMS for a day or more.
        public static let threshold: TimeInterval = 6 * 3600
        /// How long an unconfirmed SMS counts: 7 days after it went out it is history, which the
        /// log keeps. So the count clears by itself where no confirmation ever comes (a modem
        /// without delivery reports, a peer without acknowledgements) instead of growing forever.
        public static let window: TimeInterval = 7 * 86_400

        /// How many there are.
        public var count: Int
        /// When the oldest of them went out.
        public var oldestSentAt: Date
        /// The threshold they passed, in seconds.
        public var thresholdSeconds: Int

        public init(count: Int, oldestSentAt: Date, thresholdSeconds: Int = Int(Unconfirmed.threshold)) {
            self.count = count
            self.oldestSentAt = oldestSentAt
            self.thresholdSeconds = thresholdSeconds
        }

        /// Those in `reader` at `now`, or nil when there are none.
        static func read(in reader: StoreReader, now: Date) throws -> Unconfirmed? {
            let found = try reader.unconfirmedSent(before: now.addingTimeInterval(-threshold), since: now.addingTimeInterval(-window))
            guard found.count > 0, let oldest = found.oldestSentAt else { return nil }
            return Unconfirmed(count: found.count, oldestSentAt: oldest)
        }

        /// Whether anything can confirm an SMS to `contact` as it goes out: the delivery report,
        /// when the modem asks for one (`status_reports`), or the acknowledgement of the contact's
        /// gateway, which acknowledges a contact with acknowledgements on at protocol version 2
        /// (docs/PROTOCOL.md §9.2). The sender records it with the send
        /// (``Store/StoreTransaction/markOutboxSent(_:reference:modem:node:confirmable:now:)``),
        /// so a later change of either setting does not change what counts.
        public static func confirmable(reportRequested: Bool, to contact: Contact) -> Bool {
            reportRequested || (contact.acknowledgements && contact.protocolVersion >= 2)
        }

        /// What it means, in words no front end owns, with the oldest as ISO 8601 in the local zone.
        public var sentence: String {
            let have = count == 1 ? "1 sent SMS has" : "\(count) sent SMS have"
            return
                "\(have) had no delivery report or acknowledgement for over \(thresholdSeconds / 3600) hours, the oldest sent \(OperationsJSON.timestamp(oldestSentAt)): the network may have dropped them, or the phone is off. Ask the contact, send again what did not arrive, and mark them checked once you know (each counts for 7 days at most)."
        }
    }
}
