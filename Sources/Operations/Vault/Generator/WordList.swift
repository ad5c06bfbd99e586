import Foundation

/// A list of distinct words a passphrase draws from, and where it comes from (printed with every
/// passphrase, so a person can check the entropy figure).
public struct WordList: Sendable {
    /// The list's name as the output states it.
    public let name: String
    public let words: [String]
    private let lookup: Set<String>

    init(name: String, text: String) {
        self.name = name
        words = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        lookup = Set(words)
    }

    /// Whether `word` (lowercase) is in the list.
    func contains(_ word: String) -> Bool { lookup.contains(word) }

    /// The EFF large word list (7,776 words, 12.9 bits each), shipped with smsgw.
    public static let eff = WordList(
        name: "EFF large word list (7776 words, shipped with smsgw)", text: effLargeText)
}
