public import Failures

/// Why text could not be encoded to, or septets decoded from, GSM-7.
///
/// Its sentence names no option of a front end: the CLI adds its `--transliterate` hint itself,
/// using ``characterList``.
public enum GSM7Error: CategorizedError, Sendable, Equatable {
    /// The text holds characters outside the default alphabet and the extension table; lists all of them.
    case unsupportedCharacters([Offence])
    /// The septets are not valid GSM-7 text. `position` is the 0-based index in the septet array of the
    /// offending septet: a value above 0x7F, a trailing ESC, or an ESC followed by an unknown code
    /// (then the index of that ESC).
    case invalidSeptets(position: Int)

    /// One character that GSM-7 cannot carry.
    public struct Offence: Sendable, Equatable {
        /// The user-perceived character, possibly several scalars (`"e\u{301}"`, an emoji sequence).
        public let character: Character
        /// 1-based position in the text, counted in user-perceived characters.
        public let position: Int

        public init(character: Character, position: Int) {
            self.character = character
            self.position = position
        }
    }

    /// Always ``Failures/ErrorCategory/invalidInput``: the text or the septets were given.
    public var category: ErrorCategory { .invalidInput }

    public var description: String {
        switch self {
        case .unsupportedCharacters:
            return
                "The text contains characters that GSM-7 cannot carry: \(characterList); remove them or replace them with characters GSM-7 has."
        case .invalidSeptets(let position):
            return "The message is not valid GSM-7 text: septet \(position) (counting from 0) is out of range "
                + "or an escape without a known extension code; check the message's data coding scheme."
        }
    }

    /// The characters GSM-7 cannot carry, each with its position (`“ (U+201C) at position 4, …`);
    /// empty for ``invalidSeptets(position:)``.
    public var characterList: String {
        guard case .unsupportedCharacters(let offences) = self else { return "" }
        return offences.map { "\(Self.describe($0.character)) at position \($0.position)" }.joined(separator: ", ")
    }

    /// The character itself when it prints visibly, then its code points: `“ (U+201C)`, or `U+0009` for a tab.
    static func describe(_ character: Character) -> String {
        let codes = character.unicodeScalars.map(codePoint).joined(separator: " ")
        guard let first = character.unicodeScalars.first else { return codes }
        switch first.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
            .nonspacingMark, .spacingMark, .enclosingMark, .privateUse, .surrogate, .unassigned:
            return codes
        default:
            return "\(character) (\(codes))"
        }
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
