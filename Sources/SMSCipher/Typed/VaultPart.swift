/// One part of a vault record (docs/PROTOCOL.md §13.2): share (5 septets) ‖ index (1) ‖ count (1)
/// ‖ segment (1 to 131 septets). The segments of parts 1 to count, concatenated, are the record's
/// bytes packed seven bits to a septet (``SeptetBytes``).
public struct VaultPart: Sendable, Hashable {
    /// Septets of record one part carries: the body capacity less share, index and count.
    public static let segmentCapacity = TypedPayload.bodyCapacity - SeptetNumber.u32Septets - 2
    /// Most parts one record may have: 16 × 131 septets hold 1,834 bytes.
    public static let maxCount = 16

    public let kind: VaultMessage.Kind
    public let share: UInt32
    /// 1 for the first part, up to ``count``.
    public let index: Int
    /// 1 to ``maxCount``.
    public let count: Int
    public let segment: [UInt8]

    /// A part; nil unless the kind carries a record, `1 ≤ index ≤ count ≤ maxCount` and the
    /// segment is 1 to ``segmentCapacity`` septets.
    public init?(kind: VaultMessage.Kind, share: UInt32, index: Int, count: Int, segment: [UInt8]) {
        guard kind.carriesRecord, (1...Self.maxCount).contains(count), (1...count).contains(index),
            (1...Self.segmentCapacity).contains(segment.count), segment.allSatisfy({ $0 < 0x80 })
        else { return nil }
        self.kind = kind
        self.share = share
        self.index = index
        self.count = count
        self.segment = segment
    }

    /// The part a body of `kind` carries, or nil.
    init?(kind: VaultMessage.Kind, body: [UInt8]) {
        let header = SeptetNumber.u32Septets + 2
        guard body.count > header, let share = SeptetNumber.u32(body[...]) else { return nil }
        self.init(
            kind: kind, share: share, index: Int(body[header - 2]), count: Int(body[header - 1]), segment: Array(body[header...]))
    }

    public var payload: TypedPayload {
        TypedPayload(
            kind: TypedPayload.Kind(rawValue: kind.rawValue),
            body: SeptetNumber.septets(UInt64(share), count: SeptetNumber.u32Septets) + [UInt8(index), UInt8(count)] + segment)
    }

    /// The parts that carry `record` for `share`; nil when it needs more than ``maxCount`` parts
    /// or is empty.
    public static func split(_ record: [UInt8], kind: VaultMessage.Kind, share: UInt32) -> [VaultPart]? {
        let septets = SeptetBytes.septets(record)
        let count = (septets.count + segmentCapacity - 1) / segmentCapacity
        guard kind.carriesRecord, (1...maxCount).contains(count) else { return nil }
        return (0..<count).map { index in
            let segment = Array(septets[(index * segmentCapacity)..<min(septets.count, (index + 1) * segmentCapacity)])
            return VaultPart(kind: kind, share: share, index: index + 1, count: count, segment: segment)!
        }
    }

    /// The record that `parts` (all of one share and kind, any order, each index once) carry; nil
    /// when one is missing, repeated or inconsistent, or the padding is not zero.
    public static func join(_ parts: [VaultPart]) -> [UInt8]? {
        guard let first = parts.first, parts.count == first.count,
            parts.allSatisfy({ $0.share == first.share && $0.kind == first.kind && $0.count == first.count }),
            Set(parts.map(\.index)).count == parts.count
        else { return nil }
        return SeptetBytes.bytes(parts.sorted { $0.index < $1.index }.flatMap(\.segment))
    }
}

/// Bytes packed seven bits to a septet, most significant bit first, the last septet padded with
/// zero bits: `b` bytes take ⌈8b/7⌉ septets and the padding is always under 7 bits, so the
/// number of septets gives the number of bytes back (⌊7n/8⌋).
public enum SeptetBytes {
    public static func septets(_ bytes: [UInt8]) -> [UInt8] {
        var septets: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 7 {
                bits -= 7
                septets.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)) & 0x7F)
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { septets.append(UInt8(truncatingIfNeeded: buffer << UInt32(7 - bits)) & 0x7F) }
        return septets
    }

    /// The bytes; nil when the padding bits are not zero or the count is not one ``septets(_:)`` makes.
    public static func bytes(_ septets: [UInt8]) -> [UInt8]? {
        let count = septets.count * 7 / 8
        guard (count * 8 + 6) / 7 == septets.count, septets.allSatisfy({ $0 < 0x80 }) else { return nil }
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for septet in septets {
            buffer = buffer << 7 | UInt32(septet)
            bits += 7
            if bits >= 8, bytes.count < count {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return buffer == 0 ? bytes : nil
    }
}
