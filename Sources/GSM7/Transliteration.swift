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
