import Foundation

/// Quoting for the commands a front end suggests, so a name with spaces or quotes can be pasted
/// into a POSIX shell as one word.
public enum Shell {
    /// `word` as it is when only letters, digits and `-_.+@` make it up, else in single quotes.
    public static func quote(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.+@".unicodeScalars.contains($0) }
        return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
