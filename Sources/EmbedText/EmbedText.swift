import Foundation

/// Writes a Swift file that holds a text file as a string constant, for a build-tool plugin:
/// `EmbedText INPUT OUTPUT TYPE PROPERTY SUMMARY` makes `enum TYPE { static let PROPERTY = "…" }`
/// with INPUT's text exactly (a raw string literal, with enough `#` that nothing in the text ends
/// it or interpolates), under a documentation comment that says SUMMARY.
@main
enum EmbedText {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 5 else {
            FileHandle.standardError.write(Data("usage: EmbedText INPUT OUTPUT TYPE PROPERTY SUMMARY\n".utf8))
            exit(64)
        }
        let (input, output, type, property, summary) = (
            arguments[1], arguments[2], arguments[3], arguments[4], arguments[5]
        )
        do {
            let text = try String(contentsOfFile: input, encoding: .utf8)
            try Data(source(of: text, type: type, property: property, summary: summary).utf8).write(
                to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("EmbedText: \(input) → \(output): \(error)\n".utf8))
            exit(1)
        }
    }

    /// The Swift source that holds `text`.
    static func source(of text: String, type: String, property: String, summary: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        // A multi-line literal leaves out the line feed before its closing delimiter: one more
        // keeps the text's own last line feed.
        let literal = hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
        return """
            // Generated at build time from the file named below; edit that file, not this one.
            /// \(summary)
            enum \(type) {
                static let \(property) = \(literal)
            }

            """
    }
}
