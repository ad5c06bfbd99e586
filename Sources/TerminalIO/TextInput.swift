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
    /// out, pasted after `prompt` if stdin is a terminal (see ``promptedCiphertext(_:length:)``),
    /// else all of stdin.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` for more than ``inputLimit`` bytes on stdin.
    public static func readCiphertext(_ argument: String?, prompt: String, length: Int) throws(TerminalInputError) -> String {
        if let argument, argument != "-" { return argument }
        if argument == nil, stdinIsTerminal { return promptedCiphertext(prompt, length: length) }
        return try allOfStdin()
    }

    /// The most that is read from stdin for one text or ciphertext: far more than any message
    /// holds, and a bound on what a mistaken pipe (`< /dev/zero`, a disk image) can make us hold.
    public static let inputLimit = 1 << 20

    /// All of stdin without one trailing newline.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` once more than ``inputLimit`` bytes
    ///   came, without waiting for the rest.
    private static func allOfStdin() throws(TerminalInputError) -> String {
        var data = Data()
        while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
            data.append(chunk)
            if data.count > inputLimit { throw .inputTooLong(limit: inputLimit) }
        }
        return withoutTrailingNewline(String(decoding: data, as: UTF8.self))
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
    public static func promptedLine(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        return firstLineOfStdin()
    }

    /// The next line of stdin without its LF or CRLF; nil at the end of input.
    public static func firstLineOfStdin() -> String? {
        guard let line = readLine(strippingNewline: true) else { return nil }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    /// Warns that `what` was given as an argument, where other users and the shell's history see it.
    public static func warnAboutArgument(_ what: String, instead advice: String) {
        Output.warning(
            "the \(what) was given on the command line, where every local user can read it (/proc) and the shell keeps it in its history; \(advice)."
        )
    }

    /// Calls `body` with each line of stdin (1-based number, line without its newline).
    public static func forEachLine(_ body: (Int, String) throws -> Void) rethrows {
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            try body(number, line)
        }
    }
}
