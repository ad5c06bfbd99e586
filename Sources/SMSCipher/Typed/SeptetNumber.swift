/// Unsigned numbers written as septets inside a typed body, most significant first (docs/PROTOCOL.md §3.4).
enum SeptetNumber {
    /// Septets that carry a 32-bit number (35 bits, the top three zero).
    static let u32Septets = 5

    /// `value` as `count` septets, most significant first.
    static func septets(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { index in UInt8(truncatingIfNeeded: value >> UInt64(7 * (count - 1 - index))) & 0x7F }
    }

    /// The number `count` septets of `septets` carry from `offset`, or nil when they run short.
    static func value(_ septets: ArraySlice<UInt8>, count: Int) -> UInt64? {
        guard septets.count >= count else { return nil }
        return septets.prefix(count).reduce(0) { $0 << 7 | UInt64($1 & 0x7F) }
    }

    /// A 32-bit number from five septets; nil when they run short or hold more than 32 bits.
    static func u32(_ septets: ArraySlice<UInt8>) -> UInt32? {
        value(septets, count: u32Septets).flatMap { UInt32(exactly: $0) }
    }
}
