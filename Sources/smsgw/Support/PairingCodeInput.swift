/// A pairing code as a person types or pastes it: in one word or several (`7KQ2 M9XD …` arrives
/// as five arguments), with spaces, hyphens, dots, underscores, slashes or the dashes and spaces
/// of other keyboards and word processors between the groups.
enum PairingCodeInput {
    /// The words joined, every separator made a hyphen, for ``PairingCode/init(parsing:)``.
    static func normalised(_ words: [String]) -> String {
        var result = ""
        for scalar in words.joined(separator: "-").unicodeScalars {
            let separator =
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .dashPunctuation
                || "._/:".unicodeScalars.contains(scalar)
            result.unicodeScalars.append(separator ? "-" : scalar)
        }
        return result
    }
}
