import Foundation
import SplitMix
import Testing

@testable import SMSCipher

@Suite struct TamperTests {
    @Test func aChangedSymbolAtEveryPositionFailsAndChangesNothing() throws {
        var rng = SplitMix64.replayable()
        var pair = Pair(seed: rng.next())
        _ = try pair.bobOpens(pair.aliceSeals("warm up"))
        for text in ["", "short", String(repeating: "full", count: 35) + "x"] {
            let ciphertext = Array(try pair.aliceSeals(text).unicodeScalars)
            let before = pair.bob
            for position in 0..<160 {
                var changed = ciphertext
                let digit = WireAlphabet.characters.firstIndex(of: changed[position])!
                let replacement = (digit + 1 + Int(rng.next() % 121)) % WireAlphabet.size
                changed[position] = WireAlphabet.characters[replacement]
                let tampered = String(String.UnicodeScalarView(changed))
                #expect(throws: CipherError.self) { _ = try pair.bob.opening(tampered, now: pair.now, using: &pair.rng) }
                #expect(pair.bob == before)
            }
            #expect(try pair.bobOpens(String(String.UnicodeScalarView(ciphertext))) == text)
        }
    }

    @Test func wrongContactCannotOpen() throws {
        var pair = Pair()
        var other = Pair(seed: 99)
        let ciphertext = try pair.aliceSeals("for bob only")
        let before = other.bob
        #expect(throws: CipherError.notAuthentic) { try other.bobOpens(ciphertext) }
        #expect(other.bob == before)
    }

    @Test func malformedInputIsATypedError() throws {
        var pair = Pair()
        #expect(throws: CipherError.malformed(.wrongLength(3))) { try pair.bobOpens("abc") }
        let good = try pair.aliceSeals("x")
        #expect(throws: CipherError.malformed(.wrongLength(159))) { try pair.bobOpens(String(good.dropLast())) }
        let withAt = "@" + good.dropFirst()
        #expect(throws: CipherError.malformed(.invalidCharacter("@", position: 1))) { try pair.bobOpens(withAt) }
        // The largest 160-character string is above 122^160 − 2^1074·(tag modulus): out of range.
        let top = String(repeating: String(WireAlphabet.characters.last!), count: 160)
        #expect(throws: CipherError.malformed(.outOfRange)) { try pair.bobOpens(top) }
    }

    @Test func ciphertextSymbolsAreUniform() throws {
        // Chi-square over 10,000 encryptions of one fixed text, all 160 positions pooled and each
        // position alone for a sample of positions. 121 degrees of freedom: the 0.9999 quantile is 187.
        var pair = Pair(seed: 5)
        let count = 10_000
        var pooled = [Int](repeating: 0, count: WireAlphabet.size)
        var perPosition = [[Int]](repeating: [Int](repeating: 0, count: WireAlphabet.size), count: 160)
        let index = Dictionary(uniqueKeysWithValues: WireAlphabet.characters.enumerated().map { ($1, $0) })
        for _ in 0..<count {
            let ciphertext = try pair.aliceSeals("The same text every time")
            for (position, scalar) in ciphertext.unicodeScalars.enumerated() {
                let digit = index[scalar]!
                pooled[digit] += 1
                perPosition[position][digit] += 1
            }
        }
        func chiSquare(_ counts: [Int]) -> Double {
            let expected = Double(counts.reduce(0, +)) / Double(counts.count)
            return counts.reduce(0) { $0 + pow(Double($1) - expected, 2) / expected }
        }
        #expect(chiSquare(pooled) < 187, "pooled chi-square \(chiSquare(pooled))")
        for position in [0, 1, 2, 3, 4, 5, 40, 80, 120, 159] {
            let value = chiSquare(perPosition[position])
            #expect(value < 187, "position \(position): chi-square \(value)")
        }
    }
}
