import GSM7
import SMSCipher

/// The error for a text that `--transliterate` could not make GSM-7: the library's sentence ends
/// "remove them or use --transliterate", which would tell the user to add the flag they gave.
enum Transliterated {
    /// Runs `body` (a seal); when `transliterated`, rewords an unsupported-characters error.
    static func explaining<T>(_ transliterated: Bool, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch CipherError.unsupportedText(let error) where transliterated {
            throw CLIError(sentence(for: error), status: .dataError)
        }
    }

    private static let flagHint = "; remove them or use --transliterate."

    /// The sentence naming the characters, ending with what still helps.
    static func sentence(for error: GSM7Error) -> String {
        let text = error.description
        guard text.hasSuffix(flagHint) else { return text }
        return text.dropLast(flagHint.count) + " (--transliterate has no replacement for them); remove them."
    }
}
