/// SplitMix64: a small, fast generator that repeats its sequence for a given seed, so a fault
/// scenario can be replayed. Not for cryptography.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p` (0 never draws a number, so plans without faults stay replayable).
    mutating func chance(_ p: Double) -> Bool {
        guard p > 0 else { return false }
        if p >= 1 { return true }
        return Double.random(in: 0..<1, using: &self) < p
    }
}
