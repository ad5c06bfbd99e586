import Foundation

/// What the generator is asked for: characters from some classes, or words from a list.
public enum PasswordRequest: Sendable, Hashable {
    /// `length` characters drawn from the union of `classes`, each class present at least once.
    case characters(length: Int, classes: Set<CharacterClass>, excludeAmbiguous: Bool)
    /// `count` words from ``WordList/eff``, joined by `separator`.
    case words(count: Int, separator: String)

    /// 20 characters of every class: about 131 bits.
    public static let defaultCharacters = PasswordRequest.characters(
        length: 20, classes: Set(CharacterClass.allCases), excludeAmbiguous: false)
    /// 8 words of the EFF list: 103.4 bits.
    public static let defaultWords = PasswordRequest.words(count: 8, separator: "-")
    /// Bounds that keep requests sensible (and the arithmetic exact enough).
    public static let lengths = 4...256
    public static let wordCounts = 3...40
}

/// A generated password with its entropy, computed from the generator's own choices.
///
/// JSON: `{"bits","password","source"}`; `source` names the word list or the alphabet.
public struct GeneratedPassword: Sendable, Hashable, Encodable {
    public var password: String
    /// log2 of how many passwords the generator chose from, each as likely as the others.
    public var bits: Double
    /// The word list (``WordList/name``) or the alphabet's classes, as the output states it.
    public var source: String

    private enum CodingKeys: String, CodingKey { case password, bits, source }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(password, forKey: .password)
        try container.encode((bits * 10).rounded() / 10, forKey: .bits)
        try container.encode(source, forKey: .source)
    }
}

/// The password generator: uniform draws (``UniformDraw``) from the random number generator the
/// caller passes (the operating system's CSPRNG, `SystemRandomNumberGenerator`, outside tests).
///
/// A character password must contain each requested class. It is drawn as a whole from the
/// union alphabet and drawn again while a class is missing: the result is uniform over exactly
/// the passwords that contain every class, and the entropy is log2 of their number, counted by
/// inclusion and exclusion (``characterBits(length:classSizes:)``), a little below
/// length × log2(alphabet). Nothing is measured on the result.
public enum PasswordGenerator {
    /// One password for `request`.
    ///
    /// - Throws: ``VaultError/generator(_:)`` for a length or count out of range, no class, or
    ///   fewer characters than classes.
    public static func generate(
        _ request: PasswordRequest, using rng: inout some RandomNumberGenerator
    ) throws -> GeneratedPassword {
        switch request {
        case .characters(let length, let classes, let excludeAmbiguous):
            let sets = try alphabets(length: length, classes: classes, excludeAmbiguous: excludeAmbiguous)
            let alphabet = sets.flatMap { $0 }
            var scalars: [Unicode.Scalar]
            repeat {
                scalars = (0..<length).map { _ in alphabet[UniformDraw.below(alphabet.count, using: &rng)] }
            } while !sets.allSatisfy { set in scalars.contains(where: set.contains) }
            var password = String.UnicodeScalarView()
            password.append(contentsOf: scalars)
            return GeneratedPassword(
                password: String(password), bits: characterBits(length: length, classSizes: sets.map(\.count)),
                source: describe(classes, excludeAmbiguous: excludeAmbiguous, alphabet: alphabet.count))
        case .words(let count, let separator):
            guard PasswordRequest.wordCounts.contains(count) else {
                throw VaultError.generator(
                    "A passphrase has \(PasswordRequest.wordCounts.lowerBound) to \(PasswordRequest.wordCounts.upperBound) words; ask for a count in that range."
                )
            }
            let list = WordList.eff
            let words = (0..<count).map { _ in list.words[UniformDraw.below(list.words.count, using: &rng)] }
            return GeneratedPassword(
                password: words.joined(separator: separator), bits: Double(count) * log2(Double(list.words.count)),
                source: list.name)
        }
    }

    /// log2 of how many strings of `length` characters over the union of disjoint classes of the
    /// given sizes contain at least one character of each class:
    /// Σ over subsets S of the classes of (-1)^|S| (N - |S's characters|)^length, N the union's
    /// size, computed as length × log2(N) + log2 of that sum divided by N^length.
    public static func characterBits(length: Int, classSizes: [Int]) -> Double {
        let total = Double(classSizes.reduce(0, +))
        var fraction = 0.0
        for subset in 0..<(1 << classSizes.count) {
            let left = classSizes.indices.filter { subset & (1 << $0) == 0 }.map { Double(classSizes[$0]) }.reduce(0, +)
            let sign = subset.nonzeroBitCount % 2 == 0 ? 1.0 : -1.0
            fraction += sign * pow(left / total, Double(length))
        }
        return Double(length) * log2(total) + log2(fraction)
    }

    /// The alphabet of each requested class, in a fixed order, after checking the request.
    static func alphabets(length: Int, classes: Set<CharacterClass>, excludeAmbiguous: Bool) throws -> [[Unicode.Scalar]] {
        guard PasswordRequest.lengths.contains(length) else {
            throw VaultError.generator(
                "A password has \(PasswordRequest.lengths.lowerBound) to \(PasswordRequest.lengths.upperBound) characters; ask for a length in that range."
            )
        }
        guard !classes.isEmpty else {
            throw VaultError.generator("No character class was asked for; give at least one of lower, upper, digits, symbols.")
        }
        guard length >= classes.count else {
            throw VaultError.generator(
                "\(length) characters cannot hold one of each of \(classes.count) classes; ask for more characters or fewer classes.")
        }
        return CharacterClass.allCases.filter(classes.contains).map { $0.scalars(excludingAmbiguous: excludeAmbiguous) }
    }

    /// "lower, upper, digits, symbols (94 characters)", with the exclusion when asked.
    static func describe(_ classes: Set<CharacterClass>, excludeAmbiguous: Bool, alphabet: Int) -> String {
        let names = CharacterClass.allCases.filter(classes.contains).map(\.rawValue).joined(separator: ", ")
        return "\(names) (\(alphabet) characters\(excludeAmbiguous ? ", ambiguous ones left out" : ""))"
    }
}
