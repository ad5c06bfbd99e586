import GSM7

/// How a text becomes messages: one text message when it fits, else parts (docs/PROTOCOL.md §8.1).
///
/// The split is normative so that every front end's counter shows what sending will cost: a text
/// of at most ``ProtocolConstants/textCapacity`` septets is one ordinary text message; a longer one
/// is cut into parts of at most ``TextPart/segmentCapacity`` septets each, greedily, character by
/// character, never between the two septets of an extension character.
public struct LongText: Sendable, Equatable {
    /// The septets of the whole text (extension characters count two).
    public let septetCount: Int
    /// What to seal, in order: one text, or the parts.
    public let plaintexts: [Plaintext]

    /// How many SMS the text costs.
    public var messageCount: Int { plaintexts.count }

    /// Septets still free in the last message before the text needs one more.
    public let remainingInLastMessage: Int

    /// Splits `text` into at most `maxParts` messages.
    ///
    /// - Parameters:
    ///   - text: Any GSM 03.38 text, non-empty.
    ///   - maxParts: The sender's limit, 1 to ``TextPart/maxCount``; 1 allows only single messages.
    /// - Throws: ``CipherError/unsupportedText(_:)`` for characters outside GSM-7,
    ///   ``CipherError/textTooLong(septets:capacity:)`` when it needs more than `maxParts` messages
    ///   (capacity is then what `maxParts` messages carry).
    public init(_ text: String, maxParts: Int) throws(CipherError) {
        precondition((1...TextPart.maxCount).contains(maxParts), "maxParts is 1...32")
        let septets: [UInt8]
        do {
            septets = try GSM7.septets(for: text)
        } catch {
            throw .unsupportedText(error)
        }
        septetCount = septets.count
        if septets.count <= ProtocolConstants.textCapacity {
            plaintexts = [.text(text)]
            remainingInLastMessage = ProtocolConstants.textCapacity - septets.count
            return
        }
        let segments = Self.segments(of: septets)
        guard segments.count <= maxParts else {
            throw .textTooLong(septets: septets.count, capacity: Self.capacity(parts: maxParts))
        }
        plaintexts = segments.enumerated().map { offset, segment in
            .typed(TextPart(index: offset + 1, count: segments.count, septets: segment)!.payload)
        }
        remainingInLastMessage = TextPart.segmentCapacity - segments[segments.count - 1].count
    }

    /// Septets `parts` messages carry at least, whatever the text (one septet may be lost at a part
    /// boundary to keep an extension character whole).
    public static func capacity(parts: Int) -> Int {
        parts <= 1 ? ProtocolConstants.textCapacity : parts * TextPart.segmentCapacity - (parts - 1)
    }

    /// Greedy segments of at most ``TextPart/segmentCapacity`` septets, never splitting ESC from its code.
    static func segments(of septets: [UInt8]) -> [[UInt8]] {
        var segments: [[UInt8]] = []
        var start = 0
        while start < septets.count {
            var end = min(start + TextPart.segmentCapacity, septets.count)
            if end < septets.count, Self.endsInsideEscape(septets, start: start, end: end) { end -= 1 }
            segments.append(Array(septets[start..<end]))
            start = end
        }
        return segments
    }

    /// Whether `septets[start..<end]` ends with an ESC whose code lies beyond `end`.
    private static func endsInsideEscape(_ septets: [UInt8], start: Int, end: Int) -> Bool {
        var index = start
        var inside = false
        while index < end {
            inside = septets[index] == GSM7.escape && index + 1 == end
            index += septets[index] == GSM7.escape ? 2 : 1
        }
        return inside
    }
}
