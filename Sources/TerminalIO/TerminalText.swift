/// Text that came from outside (an SMS, a sender ID, an operator name, a modem's error) made safe
/// to print on a terminal or in a log line.
///
/// A hostile SMS may carry escape sequences that erase lines or move the cursor, a carriage return
/// that overwrites the start of its row, or a right-to-left override that makes "bob" read as
/// another name. Everything that can change how the rest of a line looks is written as a visible
/// escape instead, and a backslash is doubled so an escape cannot be forged:
///
/// | input | written as |
/// |---|---|
/// | `\` | `\\` |
/// | LF, CR, TAB | `\n`, `\r`, `\t` |
/// | other C0 controls (U+0000–U+001F), DEL (U+007F), C1 controls (U+0080–U+009F) | `\xHH` |
/// | bidirectional marks, embeddings, overrides and isolates; line and paragraph separators | `\u{HHHH}` |
///
/// `--json` output never goes through this: JSON carries values exactly, and its own encoding
/// escapes the C0 controls.
public enum TerminalText {
    /// `text` with every character that could drive a terminal written as a visible escape.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00...0x1F, 0x7F...0x9F: result += "\\x" + hex(scalar.value, width: 2)
            case _ where isLayoutControl(scalar.value): result += "\\u{" + hex(scalar.value, width: 4) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a scalar changes the direction or the lines of the text around it: ALM (U+061C),
    /// LRM and RLM (U+200E, U+200F), the line and paragraph separators (U+2028, U+2029), the
    /// embeddings, pop and overrides (U+202A–U+202E) and the isolates (U+2066–U+2069).
    public static func isLayoutControl(_ value: UInt32) -> Bool {
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
