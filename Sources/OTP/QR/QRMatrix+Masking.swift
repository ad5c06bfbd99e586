/// The eight data masks and the penalty score that chooses between them
/// (ISO/IEC 18004 §7.8).
extension QRMatrix {
    /// Whether mask `mask` inverts the module at column `x`, row `y` (Table 10).
    static func masks(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }

    /// Inverts the non-function modules the mask selects; applying it twice undoes it.
    mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && Self.masks(mask, x: x, y: y) {
                modules[y * size + x].toggle()
            }
        }
    }

    /// The mask with the lowest penalty, the lowest-numbered one on a tie.
    mutating func bestMask(correction: QRCode.Correction) -> Int {
        var best = 0
        var bestScore = Int.max
        for mask in 0..<8 {
            apply(mask: mask)
            drawFormatBits(correction: correction, mask: mask)
            let score = penalty()
            if score < bestScore {
                best = mask
                bestScore = score
            }
            apply(mask: mask)
        }
        return best
    }

    /// The penalty score of the matrix as it stands (Table 11).
    func penalty() -> Int {
        var score = 0
        var dark = 0
        for index in 0..<size {
            let row = (0..<size).map { self[$0, index] }
            let column = (0..<size).map { self[index, $0] }
            score += Self.runPenalty(row) + Self.runPenalty(column)
            score += Self.finderLikePenalty(row) + Self.finderLikePenalty(column)
            dark += row.filter { $0 }.count
        }
        // N2: every 2×2 block of one colour.
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = self[x, y]
                if color == self[x + 1, y] && color == self[x, y + 1] && color == self[x + 1, y + 1] {
                    score += 3
                }
            }
        }
        // N4: 10 points for each full 5% the dark proportion is away from 50%.
        let total = size * size
        score += 10 * (abs(dark * 100 - total * 50) / (total * 5))
        return score
    }

    /// N1: 3 points for each run of five modules of one colour, plus one for each module more.
    static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var runLength = 0
        var previous: Bool?
        for module in line {
            if module == previous {
                runLength += 1
            } else {
                if runLength >= 5 { score += runLength - 2 }
                runLength = 1
                previous = module
            }
        }
        if runLength >= 5 { score += runLength - 2 }
        return score
    }

    /// N3: 40 points for each 1:1:3:1:1 finder-like pattern with four light modules before or
    /// after it; the area outside the symbol counts as light.
    static func finderLikePenalty(_ line: [Bool]) -> Int {
        let padded = Array(repeating: false, count: 4) + line + Array(repeating: false, count: 4)
        let before: [Bool] = [false, false, false, false, true, false, true, true, true, false, true]
        let after: [Bool] = [true, false, true, true, true, false, true, false, false, false, false]
        var score = 0
        for start in 0...(padded.count - 11) {
            let window = padded[start..<(start + 11)]
            if window.elementsEqual(before) { score += 40 }
            if window.elementsEqual(after) { score += 40 }
        }
        return score
    }
}
