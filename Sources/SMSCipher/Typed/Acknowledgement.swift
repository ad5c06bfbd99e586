/// An acknowledgement of messages the peer's gateway decrypted: typed payload kind
/// ``TypedPayload/Kind/acknowledgement`` (docs/PROTOCOL.md §9).
///
/// The body is the epoch (five septets), the first acknowledged position (five septets), then a
/// bitmap, most significant bit first: bit `j` set means position `first + j` of the acknowledged
/// side's send chain in that epoch was decrypted. One acknowledgement covers a span of at most
/// ``maxSpan`` positions; acknowledgements are never acknowledged.
public struct Acknowledgement: Sendable, Hashable {
    /// Septets of bitmap one acknowledgement carries after epoch and first position.
    static let bitmapCapacity = TypedPayload.bodyCapacity - 2 * SeptetNumber.u32Septets
    /// Positions one acknowledgement can cover, from its first: 7 per bitmap septet.
    public static let maxSpan = 7 * bitmapCapacity

    /// The epoch of the chain the positions belong to.
    public let epoch: UInt32
    /// The acknowledged positions, ascending, without repeats, spanning at most ``maxSpan``.
    public let positions: [UInt32]

    /// An acknowledgement of `positions` in `epoch`; nil when there are none or they span more than
    /// ``maxSpan`` (see ``batches(epoch:positions:)``).
    public init?(epoch: UInt32, positions: some Sequence<UInt32>) {
        let sorted = Array(Set(positions)).sorted()
        guard let first = sorted.first, let last = sorted.last, UInt64(last) - UInt64(first) < UInt64(Self.maxSpan) else {
            return nil
        }
        self.epoch = epoch
        self.positions = sorted
    }

    /// The acknowledgement a typed payload carries; nil for another kind, a short body, an epoch
    /// or position over 32 bits, no bit set, or a span that runs past the last position.
    public init?(_ payload: TypedPayload) {
        let body = payload.body[...]
        let count = SeptetNumber.u32Septets
        guard payload.kind == .acknowledgement, body.count > 2 * count,
            let epoch = SeptetNumber.u32(body), let first = SeptetNumber.u32(body.dropFirst(count))
        else { return nil }
        var positions: [UInt32] = []
        for (offset, septet) in body.dropFirst(2 * count).enumerated() {
            for bit in 0..<7 where septet & (0x40 >> UInt8(bit)) != 0 {
                let (position, overflow) = first.addingReportingOverflow(UInt32(offset * 7 + bit))
                if overflow { return nil }
                positions.append(position)
            }
        }
        self.init(epoch: epoch, positions: positions)
    }

    /// The typed payload that carries this acknowledgement, its bitmap as short as the span allows.
    public var payload: TypedPayload {
        let first = positions[0]
        var bitmap = [UInt8](repeating: 0, count: Int(positions[positions.count - 1] - first) / 7 + 1)
        for position in positions {
            let offset = Int(position - first)
            bitmap[offset / 7] |= 0x40 >> UInt8(offset % 7)
        }
        let count = SeptetNumber.u32Septets
        let body = SeptetNumber.septets(UInt64(epoch), count: count) + SeptetNumber.septets(UInt64(first), count: count) + bitmap
        return TypedPayload(kind: .acknowledgement, body: body)
    }

    /// The fewest acknowledgements that cover `positions` of `epoch`: greedy spans of ``maxSpan``
    /// from the lowest position.
    public static func batches(epoch: UInt32, positions: some Sequence<UInt32>) -> [Acknowledgement] {
        var batches: [Acknowledgement] = []
        var pending: [UInt32] = []
        for position in Set(positions).sorted() {
            if let first = pending.first, UInt64(position) - UInt64(first) >= UInt64(maxSpan) {
                batches.append(Acknowledgement(epoch: epoch, positions: pending)!)
                pending = []
            }
            pending.append(position)
        }
        if !pending.isEmpty { batches.append(Acknowledgement(epoch: epoch, positions: pending)!) }
        return batches
    }
}
