/// One replacement made by ``GSM7/transliterate(_:)``.
public struct Transliteration: Sendable, Equatable {
    /// The character as it was in the text.
    public let original: Character
    /// What replaced it; may be empty (a zero-width space or soft hyphen is removed) or longer ("...").
    public let replacement: String
    /// 1-based position of `original` in the original text, counted in user-perceived characters.
    public let position: Int

    public init(original: Character, replacement: String, position: Int) {
        self.original = original
        self.replacement = replacement
        self.position = position
    }
}

extension Transliteration {
    /// The replacement in words, as the unsupported characters are named: `’ (U+2019) → ' at
    /// position 3`; a character removed says so, and a space is named, not left invisible.
    public var summary: String {
        let replaced: String
        switch replacement {
        case "": replaced = "removed"
        case " ": replaced = "→ a space"
        default: replaced = "→ \(replacement)"
        }
        return "\(GSM7Error.describe(original)) \(replaced) at position \(position)"
    }
}
