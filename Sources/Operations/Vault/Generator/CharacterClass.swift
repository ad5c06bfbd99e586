/// A class of characters a generated password can be asked to contain.
public enum CharacterClass: String, Sendable, Hashable, CaseIterable, Codable {
    case lower, upper, digits, symbols

    /// Characters people confuse when they read or type a password: left out on request.
    public static let ambiguous: Set<Unicode.Scalar> = ["I", "l", "1", "O", "0", "o", "|", "`", "'", "\""]

    /// The class's characters, in code point order.
    public var scalars: [Unicode.Scalar] { Self.table[self] ?? [] }

    /// Each class's characters, computed once.
    private static let table = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.computedScalars) })

    private var computedScalars: [Unicode.Scalar] {
        switch self {
        case .lower: Self.range("a", "z")
        case .upper: Self.range("A", "Z")
        case .digits: Self.range("0", "9")
        // Every printable ASCII character that is neither a letter, a digit nor a space: 32.
        case .symbols:
            Self.range("!", "~").filter { !$0.properties.isAlphabetic && !("0"..."9").contains($0) }
        }
    }

    /// The class's characters, without the ambiguous ones when asked.
    public func scalars(excludingAmbiguous: Bool) -> [Unicode.Scalar] {
        excludingAmbiguous ? scalars.filter { !Self.ambiguous.contains($0) } : scalars
    }

    private static func range(_ first: Unicode.Scalar, _ last: Unicode.Scalar) -> [Unicode.Scalar] {
        (first.value...last.value).compactMap(Unicode.Scalar.init)
    }
}
