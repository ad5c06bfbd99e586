/// Uniform draws from a random number generator without modulo bias.
///
/// `next() % n` favours the small values whenever 2^64 is not a multiple of n; this rejects the
/// top `2^64 mod n` values of each draw instead, so every result in `0..<n` has the same
/// probability. The rejected range is below n / 2^64 of the draws: almost never a second draw.
enum UniformDraw {
    /// A number in `0..<upperBound`, each with probability 1/upperBound.
    static func below(_ upperBound: Int, using rng: inout some RandomNumberGenerator) -> Int {
        precondition(upperBound > 0, "a uniform draw needs a positive bound")
        let bound = UInt64(upperBound)
        // 2^64 mod bound, computed without 2^64: (2^64 - bound) mod bound.
        let rejected = (0 &- bound) % bound
        while true {
            let value = rng.next()
            if value <= UInt64.max - rejected { return Int(value % bound) }
        }
    }
}
