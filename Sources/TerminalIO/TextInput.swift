public import Foundation
import Glibc

/// Reading a command's input: an argument, `-` for all of stdin, a line typed at a prompt on a
/// terminal, or stdin line by line.
///
/// A text on the command line is visible to every local user (in /proc) and kept in the shell's
/// history, and a ciphertext there is mangled by the shell (`'`, `"`, `$`, `!` and the backquote
/// are in its alphabet); so left out, the input comes from stdin, or a prompt when that is a terminal.
public enum TextInput {
    /// Whether stdin is a terminal (someone typing), not a pipe or a file.
    public static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Whether stdout is a terminal, where text from an SMS is printed escaped.
    public static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// A message's text: the argument, with a warning on stderr; all of stdin for `-`; when left
    /// out, one line typed after `prompt` if stdin is a terminal, else all of stdin.
    ///
    /// - Throws: ``TerminalInputError/severalLinesPasted`` when several lines were pasted at the
    ///   prompt, ``TerminalInputError/inputTooLong(limit:)`` for more than ``inputLimit`` bytes on stdin.
    public static func read(_ argument: String?, prompt: String) throws(TerminalInputError) -> String {
        if let argument, argument != "-" {
            warnAboutArgument("text", instead: "leave it out to type it at a prompt, or pipe it in")
            return argument
        }
        if argument == nil, stdinIsTerminal { return try promptedText(prompt) }
        return try allOfStdin()
    }

    /// A ciphertext: the argument (not secret, so no warning); all of stdin for `-`; when left
    /// out, pasted after `prompt` if stdin is a terminal (see ``promptedCiphertext(_:length:counting:)``),
    /// else all of stdin.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` for more than ``inputLimit`` bytes on stdin.
    public static func readCiphertext(
        _ argument: String?, prompt: String, length: Int, counting characterCount: (String) -> Int
    ) throws(TerminalInputError) -> String {
        if let argument, argument != "-" { return argument }
        if argument == nil, stdinIsTerminal { return try promptedCiphertext(prompt, length: length, counting: characterCount) }
        return try allOfStdin()
    }

    /// The most that is read from stdin for one text, ciphertext, line or secret: far more than
    /// any message holds, and a bound on what a mistaken pipe (`< /dev/zero`, a disk image) can
    /// make us hold.
    public static let inputLimit = 1 << 20

    /// All of stdin without one trailing newline.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` once more than ``inputLimit`` bytes
    ///   came, without waiting for the rest.
    private static func allOfStdin() throws(TerminalInputError) -> String {
        withoutTrailingNewline(try StandardInput.rest(limit: inputLimit))
    }

    /// `text` without one trailing LF or CRLF: what a shell's `echo` or a file's last line adds.
    public static func withoutTrailingNewline(_ text: String) -> String {
        var text = text
        // "\r\n" is one Character, so one removeLast takes both.
        if text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// One line read from stdin after writing `prompt` to stderr; it ends on Enter (a ciphertext
    /// holds no line break, so a pasted SMS is one line). Nil at the end of input (Ctrl-D).
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` past ``inputLimit`` bytes without Enter.
    public static func promptedLine(_ prompt: String) throws(TerminalInputError) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        return try firstLineOfStdin()
    }

    /// The next line of stdin without its LF or CRLF; nil at the end of input.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` past ``inputLimit`` bytes without a line break.
    public static func firstLineOfStdin() throws(TerminalInputError) -> String? {
        try StandardInput.line(limit: inputLimit)
    }

    /// Warns that `what` was given as an argument, where other users and the shell's history see it.
    public static func warnAboutArgument(_ what: String, instead advice: String) {
        Output.warning(
            "the \(what) was given on the command line, where every local user can read it (/proc) and the shell keeps it in its history; \(advice)."
        )
    }

    /// Calls `body` with each line of stdin (1-based number, line without its newline).
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` at a line longer than
    ///   ``inputLimit`` bytes; the lines before it were handed to `body`.
    public static func forEachLine(_ body: (Int, String) -> Void) throws(TerminalInputError) {
        var number = 0
        while let line = try firstLineOfStdin() {
            number += 1
            body(number, line)
        }
    }
}
