import SplitMix

/// An SMS network that loses, duplicates and reorders messages.
struct SimulatedChannel {
    var rng: SplitMix64
    var dropRate = 0.10
    var duplicateRate = 0.05
    /// Probability that a message swaps places with the next one or two.
    var reorderRate = 0.2

    /// One SMS on the wire: which message it carries and its text.
    struct Delivery: Equatable {
        var index: Int
        var ciphertext: String
    }

    /// What arrives when `ciphertexts` are sent in order.
    mutating func transmit(_ ciphertexts: [String]) -> [Delivery] {
        var out: [Delivery] = []
        for (index, ciphertext) in ciphertexts.enumerated() {
            if Double.random(in: 0..<1, using: &rng) < dropRate { continue }
            out.append(Delivery(index: index, ciphertext: ciphertext))
            if Double.random(in: 0..<1, using: &rng) < duplicateRate {
                // The copy arrives a few messages later.
                let at = min(out.count, out.count - 1 + Int.random(in: 1...4, using: &rng))
                out.insert(Delivery(index: index, ciphertext: ciphertext), at: at)
            }
        }
        var position = 0
        while position + 1 < out.count {
            if Double.random(in: 0..<1, using: &rng) < reorderRate {
                let other = min(out.count - 1, position + Int.random(in: 1...2, using: &rng))
                out.swapAt(position, other)
            }
            position += 1
        }
        return out
    }
}
