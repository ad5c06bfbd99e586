import Foundation

/// A reproducible random number generator (SplitMix64) for randomised tests.
///
/// Each test prints its seed; set `OTP_TEST_SEED` to that number to replay a failure.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    /// The seed this generator started from.
    let seed: UInt64

    /// Creates a generator from a seed.
    init(seed: UInt64) {
        self.seed = seed
        self.state = seed
    }

    /// A generator seeded from `OTP_TEST_SEED`, or from the system's random source; the seed is
    /// printed so a failing run can be repeated.
    /// - Parameter label: Names the test in the printed line.
    static func fromEnvironment(label: String) -> SeededGenerator {
        let seed = ProcessInfo.processInfo.environment["OTP_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("\(label): seed \(seed) (set OTP_TEST_SEED=\(seed) to replay)")
        return SeededGenerator(seed: seed)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
