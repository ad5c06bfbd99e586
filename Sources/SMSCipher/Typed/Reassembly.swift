import GSM7

public import struct Foundation.Date

/// The receiver's texts in parts, per contact: collects parts until a text is whole, and hands a
/// text out with its gaps marked when it must (docs/PROTOCOL.md §8.2).
///
/// Bounded whatever the peer sends: at most ``maxPendingTexts`` incomplete texts of at most
/// ``TextPart/maxCount`` parts of ``TextPart/segmentCapacity`` septets (about 17 KB), and the keys
/// (not the texts) of the last ``rememberedTexts`` handed out, to recognise their late parts. A
/// value type: the caller stores it with the session, in the transaction that opened the part.
public struct Reassembly: Sendable, Equatable, Codable {
    /// Incomplete texts kept at once; a further one hands out the oldest with its gaps marked.
    public static let maxPendingTexts = 4
    /// Texts handed out whose late parts are still recognised.
    public static let rememberedTexts = 16

    /// Incomplete texts, oldest first.
    public private(set) var pending: [PendingText] = []
    /// Texts already handed out (complete or with gaps), newest last.
    public private(set) var handedOut: [HandedOutText] = []

    public init() {}

    /// What became of one part.
    public enum Outcome: Sendable, Equatable {
        /// Kept; the text still lacks parts.
        case waiting(received: Int, count: Int)
        /// The last missing part: the whole text.
        case complete(AssembledText)
        /// A part of a text already handed out with this part missing: the part alone.
        case late(TextPart, first: UInt32)
        /// A part already received.
        case duplicate
        /// A part no honest sender produces (see ``Rejection``); nothing was kept.
        case rejected(Rejection)
    }

    /// Why a part was refused.
    public enum Rejection: Sendable, Equatable {
        /// Its index reaches before position 0 of the chain.
        case beforeFirstPosition
        /// Another part of the same text gave a different count.
        case countMismatch(kept: Int, claimed: Int)
        /// Its text's positions overlap those of another text.
        case overlapsAnotherText
    }

    /// Adds a part that opened at `position` of the peer's chain in `epoch`.
    ///
    /// - Returns: What became of the part, and the texts handed out early to make room (the
    ///   oldest incomplete one when ``maxPendingTexts`` are kept already), with their gaps.
    public mutating func add(
        _ part: TextPart, position: UInt32, epoch: UInt32, now: Date
    ) -> (outcome: Outcome, released: [AssembledText]) {
        guard let first = part.firstPosition(openedAt: position) else { return (.rejected(.beforeFirstPosition), []) }
        let range = Self.range(first: first, count: part.count)
        if let index = handedOut.firstIndex(where: { $0.epoch == epoch && $0.first == first }) {
            guard handedOut[index].count == part.count else {
                return (.rejected(.countMismatch(kept: handedOut[index].count, claimed: part.count)), [])
            }
            guard !handedOut[index].received.contains(part.index) else { return (.duplicate, []) }
            handedOut[index].received.append(part.index)
            return (.late(part, first: first), [])
        }
        if let index = pending.firstIndex(where: { $0.epoch == epoch && $0.first == first }) {
            guard pending[index].count == part.count else {
                return (.rejected(.countMismatch(kept: pending[index].count, claimed: part.count)), [])
            }
            guard pending[index].segments[part.index - 1] == nil else { return (.duplicate, []) }
            pending[index].segments[part.index - 1] = part.septets
            guard pending[index].isComplete else {
                return (.waiting(received: pending[index].receivedCount, count: part.count), [])
            }
            let whole = hand(out: index)
            return (.complete(whole), [])
        }
        let overlaps = (pending.map { ($0.epoch, $0.first, $0.count) } + handedOut.map { ($0.epoch, $0.first, $0.count) })
            .contains { $0.0 == epoch && Self.range(first: $0.1, count: $0.2).overlaps(range) }
        guard !overlaps else { return (.rejected(.overlapsAnotherText), []) }
        var released: [AssembledText] = []
        if pending.count >= Self.maxPendingTexts { released.append(hand(out: 0)) }
        var text = PendingText(epoch: epoch, first: first, count: part.count, startedAt: now)
        text.segments[part.index - 1] = part.septets
        pending.append(text)
        return (.waiting(received: 1, count: part.count), released)
    }

    /// Hands out, with their gaps marked, the incomplete texts whose first part arrived before `cutoff`.
    public mutating func release(startedBefore cutoff: Date) -> [AssembledText] {
        var released: [AssembledText] = []
        while let index = pending.firstIndex(where: { $0.startedAt < cutoff }) { released.append(hand(out: index)) }
        return released
    }

    private mutating func hand(out index: Int) -> AssembledText {
        let text = pending.remove(at: index)
        handedOut.append(HandedOutText(epoch: text.epoch, first: text.first, count: text.count, received: text.receivedIndices))
        if handedOut.count > Self.rememberedTexts { handedOut.removeFirst(handedOut.count - Self.rememberedTexts) }
        return AssembledText(epoch: text.epoch, first: text.first, segments: text.segments.map { $0.flatMap { try? GSM7.text(from: $0) } })
    }

    private static func range(first: UInt32, count: Int) -> ClosedRange<UInt64> {
        UInt64(first)...(UInt64(first) + UInt64(count) - 1)
    }
}

extension Reassembly {
    /// An incomplete text: its place in the peer's chain and the segments received so far.
    public struct PendingText: Sendable, Equatable, Codable {
        public let epoch: UInt32
        public let first: UInt32
        public let count: Int
        public let startedAt: Date
        /// One entry per part, nil while missing.
        public var segments: [[UInt8]?]

        init(epoch: UInt32, first: UInt32, count: Int, startedAt: Date) {
            self.epoch = epoch
            self.first = first
            self.count = count
            self.startedAt = startedAt
            segments = Array(repeating: nil, count: count)
        }

        var receivedIndices: [Int] { segments.indices.filter { segments[$0] != nil }.map { $0 + 1 } }
        var receivedCount: Int { segments.count { $0 != nil } }
        var isComplete: Bool { receivedCount == count }
    }

    /// A text already handed out: which parts it had, so a late one is told from a duplicate.
    public struct HandedOutText: Sendable, Equatable, Codable {
        public let epoch: UInt32
        public let first: UInt32
        public let count: Int
        public var received: [Int]
    }
}

/// A text put together from its parts, whole or with gaps.
public struct AssembledText: Sendable, Equatable {
    /// The epoch and first position of the text in the peer's chain: its identity.
    public let epoch: UInt32
    public let first: UInt32
    /// Each part's segment in order, nil where the part is missing.
    public let segments: [String?]

    /// Whether every part arrived.
    public var isComplete: Bool { !segments.contains(nil) }
    /// The 1-based indices of the missing parts.
    public var missing: [Int] { segments.indices.filter { segments[$0] == nil }.map { $0 + 1 } }

    /// The text, each missing part replaced by `gap(index, count)`.
    public func text(gap: (Int, Int) -> String = AssembledText.gapMarker) -> String {
        segments.enumerated().map { offset, segment in segment ?? gap(offset + 1, segments.count) }.joined()
    }

    /// The marker for a missing part: `[part 2 of 5 missing]`.
    public static func gapMarker(index: Int, count: Int) -> String { "[part \(index) of \(count) missing]" }
}
