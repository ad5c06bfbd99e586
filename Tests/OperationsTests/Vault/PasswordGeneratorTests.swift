import Foundation
import SplitMix
import Testing

@testable import Operations

/// The generator: every requested class present, uniform draws without modulo bias (chi-square),
/// entropy figures that count exactly the passwords it chooses from, passphrases from the shipped
/// list; and the estimate for typed passwords.
@Suite("Password generator")
struct PasswordGeneratorTests {
    /// The chi-square statistic of observed counts against equal expected counts.
    static func chiSquare(_ counts: [Int]) -> Double {
        let expected = Double(counts.reduce(0, +)) / Double(counts.count)
        return counts.reduce(0) { $0 + pow(Double($1) - expected, 2) / expected }
    }

    /// An upper critical value of chi-square with `df` degrees of freedom at p ≈ 0.0001
    /// (Wilson–Hilferty), so a fair generator fails about once in 10,000 runs of one check.
    static func critical(_ df: Int) -> Double {
        let k = Double(df)
        let z = 3.719
        return k * pow(1 - 2 / (9 * k) + z * (2 / (9 * k)).squareRoot(), 3)
    }

    @Test("Every requested class is in every password, and nothing else is", arguments: [4, 5, 8, 20])
    func classesPresent(length: Int) throws {
        var rng = SplitMix64.replayable("classes \(length)")
        let choices: [Set<CharacterClass>] = [[.lower], [.digits, .symbols], [.lower, .upper, .digits], Set(CharacterClass.allCases)]
        for classes in choices {
            for exclude in [false, true] {
                let allowed = Set(classes.flatMap { $0.scalars(excludingAmbiguous: exclude) })
                for _ in 0..<200 {
                    let password = try PasswordGenerator.generate(
                        .characters(length: length, classes: classes, excludeAmbiguous: exclude), using: &rng
                    ).password
                    let scalars = Array(password.unicodeScalars)
                    #expect(scalars.count == length)
                    #expect(scalars.allSatisfy(allowed.contains))
                    for one in classes { #expect(scalars.contains(where: one.scalars.contains), "\(one) missing in a password") }
                }
            }
        }
    }

    /// The share of strings of `length` over disjoint classes of `sizes` that contain a character
    /// of each class in `required` (inclusion and exclusion).
    static func shareContaining(_ required: [Int], length: Int, sizes: [Int]) -> Double {
        let total = Double(sizes.reduce(0, +))
        var share = 0.0
        for subset in 0..<(1 << required.count) {
            let left = total - required.indices.filter { subset & (1 << $0) != 0 }.map { Double(sizes[required[$0]]) }.reduce(0, +)
            share += (subset.nonzeroBitCount % 2 == 0 ? 1 : -1) * pow(left / total, Double(length))
        }
        return share
    }

    @Test("Characters follow the uniform distribution over valid passwords (chi-square, 94 characters, system CSPRNG)")
    func charactersUniform() throws {
        var rng = SystemRandomNumberGenerator()
        let classes = CharacterClass.allCases
        let sizes = classes.map(\.scalars.count)
        let length = 20
        let passwords = 3000
        var counts = [Unicode.Scalar: Int]()
        for _ in 0..<passwords {
            let password = try PasswordGenerator.generate(.defaultCharacters, using: &rng).password
            for scalar in password.unicodeScalars { counts[scalar, default: 0] += 1 }
        }
        // Uniform over the passwords that hold every class is not uniform per character: a
        // character of a small class (digits) also satisfies its class, so it is a little more
        // likely. P(c at a position) = (1/N) × share of the other 19 holding the other classes
        // ÷ share of all 20 holding every class.
        let all = Self.shareContaining(Array(classes.indices), length: length, sizes: sizes)
        var statistic = 0.0
        for (index, one) in classes.enumerated() {
            let others = Self.shareContaining(classes.indices.filter { $0 != index }, length: length - 1, sizes: sizes)
            let expected = Double(passwords * length) * others / (all * 94)
            for scalar in one.scalars { statistic += pow(Double(counts[scalar] ?? 0) - expected, 2) / expected }
        }
        #expect(statistic < Self.critical(93), "chi-square \(statistic)")
    }

    @Test("Words are uniform over the 7776 words (chi-square over 64 groups of indices)")
    func wordsUniform() throws {
        var rng = SplitMix64.replayable("words")
        let index = Dictionary(uniqueKeysWithValues: WordList.eff.words.enumerated().map { ($1, $0) })
        var groups = [Int](repeating: 0, count: 64)
        for _ in 0..<2000 {
            let phrase = try PasswordGenerator.generate(.words(count: 8, separator: " "), using: &rng).password
            for word in phrase.split(separator: " ") { groups[index[String(word)]! * 64 / 7776] += 1 }
        }
        #expect(Self.chiSquare(groups) < Self.critical(63))
    }

    @Test("A draw below a bound that does not divide 2^64 has no modulo bias")
    func noModuloBias() {
        var rng = SplitMix64.replayable("modulo bias")
        // With n = 3·2^61, 2^64 = 2n + 2^62, so `next() % n` would give the first two thirds of
        // the range 3 chances in 8 each and the last third 2 in 8.
        let bound = 3 << 61
        var thirds = [0, 0, 0]
        for _ in 0..<30_000 { thirds[UniformDraw.below(bound, using: &rng) >> 61] += 1 }
        #expect(Self.chiSquare(thirds) < Self.critical(2), "\(thirds)")
        var naive = [0, 0, 0]
        for _ in 0..<30_000 { naive[Int(rng.next() % UInt64(bound)) >> 61] += 1 }
        #expect(Self.chiSquare(naive) > Self.critical(2), "the check can see the bias it rules out")
    }

    @Test("The entropy counts exactly the passwords that contain every class (brute force on small alphabets)")
    func entropyExact() {
        for (sizes, length) in [([2, 3, 1], 4), ([1, 1], 2), ([4], 3), ([2, 2, 2, 2], 5), ([3, 1], 6)] {
            let total = sizes.reduce(0, +)
            let owner = sizes.enumerated().flatMap { index, size in [Int](repeating: index, count: size) }
            var valid = 0
            for code in 0..<Int(pow(Double(total), Double(length))) {
                var rest = code
                var seen = Set<Int>()
                for _ in 0..<length {
                    seen.insert(owner[rest % total])
                    rest /= total
                }
                if seen.count == sizes.count { valid += 1 }
            }
            let bits = PasswordGenerator.characterBits(length: length, classSizes: sizes)
            #expect(abs(bits - log2(Double(valid))) < 1e-9, "\(sizes) × \(length): \(bits) vs log2(\(valid))")
        }
    }

    @Test("Default figures are at least 100 bits and match the generator's choices")
    func defaultFigures() throws {
        var rng = SplitMix64(seed: 7)
        let characters = try PasswordGenerator.generate(.defaultCharacters, using: &rng)
        #expect(characters.bits >= 100 && characters.bits < 20 * log2(94.0))
        #expect(abs(characters.bits - 130.9) < 0.05)
        let words = try PasswordGenerator.generate(.defaultWords, using: &rng)
        #expect(abs(words.bits - 8 * log2(7776.0)) < 1e-9 && words.bits >= 100)
        #expect(words.source.contains("EFF large word list"))
        #expect(WordList.eff.words.count == 7776 && Set(WordList.eff.words).count == 7776)
        // A hyphenated word never splits into words of the list, so "-" joins unambiguously.
        for word in WordList.eff.words where word.contains("-") {
            #expect(!word.split(separator: "-").allSatisfy { WordList.eff.contains(String($0)) })
        }
        let digits = try PasswordGenerator.generate(.characters(length: 10, classes: [.digits], excludeAmbiguous: true), using: &rng)
        #expect(abs(digits.bits - 10 * log2(8.0)) < 1e-9)
    }

    @Test("Requests that cannot be met are refused")
    func refusals() {
        var rng = SplitMix64(seed: 1)
        for request in [
            PasswordRequest.characters(length: 3, classes: Set(CharacterClass.allCases), excludeAmbiguous: false),
            .characters(length: 20, classes: [], excludeAmbiguous: false),
            .characters(length: 300, classes: [.lower], excludeAmbiguous: false),
            .words(count: 2, separator: "-"), .words(count: 41, separator: "-"),
        ] {
            #expect(throws: VaultError.self) { _ = try PasswordGenerator.generate(request, using: &rng) }
        }
    }

    @Test("Typed passwords: common and dictionary ones are weak, long mixed ones strong")
    func estimates() {
        #expect(PasswordStrength.estimate("password").bits == 0)
        #expect(PasswordStrength.estimate("Password").rating == .weak)
        #expect(PasswordStrength.estimate("hunter2").rating == .weak)
        #expect(PasswordStrength.estimate("zoology1!").rating == .weak)
        #expect(PasswordStrength.estimate("aaaaaaaaaaaaaaaaaaaa").rating == .weak)
        #expect(PasswordStrength.estimate("abcdefghijklmnopqrst").rating == .weak)
        #expect(PasswordStrength.estimate("k8#Qz!v2Lp@9xR").rating == .strong)
        #expect(PasswordStrength.estimate("").bits == 0)
    }
}
