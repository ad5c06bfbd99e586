import GSM7
import SMSCipher

/// The sentence for a text GSM-7 cannot carry, with the CLI's own hint: "use --transliterate"
/// when the flag was not given, "it has no replacement for them" when it was (the library's
/// sentence names no option of any front end).
enum Transliterated {
    /// Runs `body` (a seal); when `transliterated`, rewords an unsupported-characters error.
    static func explaining<T>(_ transliterated: Bool, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch CipherError.unsupportedText(let error) where transliterated {
            throw CLIError(sentence(for: error, transliterated: true), status: .dataError)
        }
    }

    /// The sentence naming the characters, ending with what still helps.
    static func sentence(for error: GSM7Error, transliterated: Bool) -> String {
        guard case .unsupportedCharacters(let offences) = error else { return error.description }
        let list = error.characterList
        // Suggest the flag only when it would replace one of them: an emoji has no replacement.
        let flagHelps = offences.contains { offence in
            GSM7.transliterate(String(offence.character)).text.unicodeScalars.allSatisfy(GSM7.canEncode)
        }
        return transliterated || !flagHelps
            ? "The text contains characters that GSM-7 cannot carry: \(list) (--transliterate has no replacement for them); remove them."
            : "The text contains characters that GSM-7 cannot carry: \(list); remove them or use --transliterate."
    }
}
