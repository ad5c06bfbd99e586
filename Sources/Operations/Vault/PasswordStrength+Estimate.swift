import Foundation

extension PasswordStrength {
    /// Passwords every guesser tries first; a typed password equal to one (ignoring case) is weak
    /// whatever its length.
    static let common: Set<String> = [
        "password", "passw0rd", "123456", "1234567", "12345678", "123456789", "1234567890", "qwerty",
        "qwertyuiop", "azerty", "letmein", "welcome", "iloveyou", "admin", "monkey", "dragon", "football",
        "baseball", "abc123", "111111", "000000", "sunshine", "princess", "trustno1", "starwars", "master",
        "correcthorsebatterystaple",
    ]

    /// An estimate for a password a person typed: each character counts log2 of the alphabet its
    /// classes span (lower, upper, digits, ASCII symbols, anything else), except that a character
    /// repeating or continuing a run of the one before counts 1 bit; a password that is a common
    /// one counts 0 bits, and one that is a dictionary word with digits or symbols around it
    /// counts the word as one choice among the list's words.
    ///
    /// It is an upper bound: a guesser with better models (names, dates, keyboard walks, leaked
    /// lists) needs fewer guesses. Only the generator's figure is exact.
    public static func estimate(_ password: String) -> PasswordStrength {
        let scalars = Array(password.unicodeScalars)
        guard !scalars.isEmpty else { return PasswordStrength(bits: 0, source: .estimated) }
        if common.contains(password.lowercased()) { return PasswordStrength(bits: 0, source: .estimated) }
        let perCharacter = log2(Double(alphabetSize(of: scalars)))
        var bits = 0.0
        for (index, scalar) in scalars.enumerated() {
            let previous = index > 0 ? Int64(scalars[index - 1].value) : nil
            let current = Int64(scalar.value)
            let continues = previous.map { abs(current - $0) <= 1 } ?? false
            bits += continues ? 1 : perCharacter
        }
        if let word = dictionaryCore(of: password) {
            // The word as one choice among the list, the rest as counted above.
            let affix = scalars.count - word.unicodeScalars.count
            bits = min(bits, log2(Double(WordList.eff.words.count)) + Double(affix) * perCharacter)
        }
        return PasswordStrength(bits: bits, source: .estimated)
    }

    /// The size of the alphabet a password's classes span.
    static func alphabetSize(of scalars: [Unicode.Scalar]) -> Int {
        var size = 0
        if scalars.contains(where: { ("a"..."z").contains($0) }) { size += 26 }
        if scalars.contains(where: { ("A"..."Z").contains($0) }) { size += 26 }
        if scalars.contains(where: { ("0"..."9").contains($0) }) { size += 10 }
        if scalars.contains(where: { CharacterClass.symbols.scalars.contains($0) }) { size += CharacterClass.symbols.scalars.count }
        if scalars.contains(where: { !$0.isASCII }) { size += 100 }
        return max(size, 1)
    }

    /// The letters of `password` when, lowercased and stripped of digits and symbols at either
    /// end, they are one word of the list.
    static func dictionaryCore(of password: String) -> String? {
        let core = password.lowercased().trimmingCharacters(in: CharacterSet.letters.inverted)
        guard core.count >= 3, WordList.eff.contains(core) else { return nil }
        return core
    }
}
