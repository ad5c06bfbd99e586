public import Foundation

/// Writes results to stdout and diagnostics to stderr, unbuffered enough for pipes and `kill -9`.
public enum Output {
    /// What every diagnostic line starts with, so a reader of stderr knows who wrote it.
    public static let diagnosticPrefix = "smsgw: "

    /// Writes one line to stdout and flushes it, so a reader (or a killed process) never
    /// leaves a result half-written in a buffer.
    public static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Whether stderr is a terminal, where a long command shows its progress.
    public static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes one line to stderr as it is (prompts and drawings; diagnostics use ``diagnostic(_:)``).
    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes an error, a warning or a note to stderr as every smsgw diagnostic starts,
    /// `smsgw: SENTENCE`, escaped by ``TerminalText/escaped(_:)``: sentences may quote names,
    /// numbers and texts that came from an SMS.
    public static func diagnostic(_ sentence: String) {
        error(diagnosticPrefix + TerminalText.escaped(sentence))
    }

    /// Writes `smsgw: warning: SENTENCE` to stderr, after the warning's priority (`<4>`) when
    /// stderr is the journal, as the logger's warnings and the errors that end a command are.
    public static func warning(_ sentence: String) {
        error((JournalStream.isStandardError ? "<4>" : "") + diagnosticPrefix + TerminalText.escaped("warning: " + sentence))
    }

    /// Flushes stdio buffers (print) before exiting.
    public static func flush() {
        // nil flushes every open stdio stream (stdout is a global C variable Swift 6 will not touch).
        fflush(nil)
    }

    /// Escapes a text for one-line output: `\` as `\\`, LF as `\n`, CR as `\r`.
    public static func escapedLine(_ text: String) -> String {
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
