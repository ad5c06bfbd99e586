import Foundation

/// SplitMix64: a small, fast generator that repeats its sequence for a given seed, so a randomised
/// test, a fault scenario or a benchmark can be replayed. Not for cryptography: keys, nonces and fresh
/// values come from `SystemRandomNumberGenerator`.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The seed the sequence started from.
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        self.state = seed
    }

    /// A generator seeded from `SMSGW_TEST_SEED` when set, else at random; prints the seed so a
    /// failing run can be replayed with `SMSGW_TEST_SEED=<seed>`.
    /// - Parameter label: Names the test in the printed line (the calling function by default).
    public static func replayable(_ label: String = #function) -> SplitMix64 {
        let seed =
            ProcessInfo.processInfo.environment["SMSGW_TEST_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: .min ... .max)
        print("\(label): seed \(seed) (replay with SMSGW_TEST_SEED=\(seed))")
        return SplitMix64(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p` (0 never draws a number, so plans without faults stay replayable).
    public mutating func chance(_ p: Double) -> Bool {
        guard p > 0 else { return false }
        if p >= 1 { return true }
        return Double.random(in: 0..<1, using: &self) < p
    }
}
