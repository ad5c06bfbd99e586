import GSM7

/// One part of a text longer than one message: typed payload kind ``TypedPayload/Kind/textPart``
/// (docs/PROTOCOL.md §8).
///
/// The body is the part's index and the total count, one septet each, then the part's segment of
/// the text as GSM-7 septets. The parts of one text are sealed at consecutive positions of one
/// chain, part `i` at `first + i − 1`, so the receiver finds which text a part belongs to from the
/// position it opened at; nothing in the body names the text.
public struct TextPart: Sendable, Hashable {
    /// Septets of text one part carries: the body capacity less index and count.
    public static let segmentCapacity = TypedPayload.bodyCapacity - 2
    /// Most parts one text may have: the protocol's bound; a gateway's own limit may be lower.
    ///
    /// 32 parts keep a whole text within half the receive window (64), so losing every part but
    /// the last still leaves it, and the next 32 messages, inside the window.
    public static let maxCount = 32

    /// 1 for the first part, up to ``count``.
    public let index: Int
    /// How many parts the text has: 2 to ``maxCount``.
    public let count: Int
    /// This part's segment of the text, as GSM-7 septets that decode on their own.
    public let septets: [UInt8]

    /// A part; nil unless `1 ≤ index ≤ count`, `2 ≤ count ≤ maxCount` and the segment is
    /// 1 to ``segmentCapacity`` septets of GSM-7 that decode on their own.
    public init?(index: Int, count: Int, septets: [UInt8]) {
        guard (2...Self.maxCount).contains(count), (1...count).contains(index),
            (1...Self.segmentCapacity).contains(septets.count), (try? GSM7.text(from: septets)) != nil
        else { return nil }
        self.index = index
        self.count = count
        self.septets = septets
    }

    /// The part a typed payload carries; nil for another kind or a body that breaks a rule above.
    public init?(_ payload: TypedPayload) {
        guard payload.kind == .textPart, payload.body.count >= 3 else { return nil }
        self.init(index: Int(payload.body[0]), count: Int(payload.body[1]), septets: Array(payload.body.dropFirst(2)))
    }

    /// The typed payload that carries this part.
    public var payload: TypedPayload {
        TypedPayload(kind: .textPart, body: [UInt8(index), UInt8(count)] + septets)
    }

    /// The segment as text.
    public var text: String { (try? GSM7.text(from: septets)) ?? "" }

    /// The position of the text's first part, given the position this part opened at; nil when
    /// the index reaches before position 0 (no honest sender seals such a part).
    public func firstPosition(openedAt position: UInt32) -> UInt32? {
        let (first, overflow) = position.subtractingReportingOverflow(UInt32(index - 1))
        return overflow ? nil : first
    }
}
