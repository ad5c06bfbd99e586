import Foundation
import GSM7
import Operations

/// Writes results to stdout and diagnostics to stderr, unbuffered enough for pipes and `kill -9`.
enum Output {
    /// Writes one line to stdout and flushes it, so a reader (or a killed process) never
    /// leaves a result half-written in a buffer.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes one line to stderr as it is (prompts and drawings; diagnostics use ``diagnostic(_:)``).
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes an error, a warning or a note to stderr as every smsgw diagnostic starts,
    /// `smsgw: SENTENCE`, escaped by ``TerminalText/escaped(_:)``: sentences may quote names,
    /// numbers and texts that came from an SMS.
    static func diagnostic(_ sentence: String) {
        error("smsgw: " + TerminalText.escaped(sentence))
    }

    /// Writes `smsgw: warning: SENTENCE` to stderr.
    static func warning(_ sentence: String) {
        diagnostic("warning: " + sentence)
    }

    /// Tells stderr which characters `--transliterate` replaced ("line N: " first in a `--lines` batch).
    static func report(_ replacements: [Transliteration], line: Int?) {
        guard !replacements.isEmpty else { return }
        let list = replacements.map { "'\($0.original)'→'\($0.replacement)' at \($0.position)" }
        diagnostic((line.map { "line \($0): " } ?? "") + "transliterated " + list.joined(separator: ", ") + ".")
    }

    /// Flushes stdio buffers (print) before exiting.
    static func flush() {
        // nil flushes every open stdio stream (stdout is a global C variable Swift 6 will not touch).
        fflush(nil)
    }

    /// Encodes a value as one line of compact JSON: ``OperationsJSON``, the encoding every front end shares.
    static func json(_ value: some Encodable) throws -> String {
        try OperationsJSON.string(value)
    }

    /// ISO 8601 in the local time zone with its offset, e.g. 2026-11-22T07:25:02+01:00.
    static func timestamp(_ date: Date) -> String {
        OperationsJSON.timestamp(date)
    }

    /// Escapes a text for one-line output: `\` as `\\`, LF as `\n`, CR as `\r`.
    static func escapedLine(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\r\n": result += "\\r\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
