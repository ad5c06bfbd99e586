import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reading a command's input: an argument, `-` for all of stdin, a line typed at a prompt on a
/// terminal, or stdin line by line.
///
/// A text on the command line is visible to every local user (in /proc) and kept in the shell's
/// history, and a ciphertext there is mangled by the shell (`'`, `"`, `$`, `!` and the backquote
/// are in its alphabet); so left out, the input comes from stdin, or a prompt when that is a terminal.
enum TextInput {
    /// Whether stdin is a terminal (someone typing), not a pipe or a file.
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Whether stdout is a terminal, where text from an SMS is printed escaped.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// A message's text (or ciphertext): the argument; all of stdin for `-`; when left out, one
    /// line typed after `prompt` if stdin is a terminal, else all of stdin.
    ///
    /// - Parameter warnIfGiven: Warn on stderr when the argument was given (texts, not ciphertexts).
    static func read(_ argument: String?, prompt: String, warnIfGiven: Bool) -> String {
        if let argument, argument != "-" {
            if warnIfGiven { warnAboutArgument("text", instead: "leave it out to type it at a prompt, or pipe it in") }
            return argument
        }
        if argument == nil, stdinIsTerminal { return promptedLine(prompt) ?? "" }
        return allOfStdin()
    }

    /// All of stdin without one trailing newline.
    static func allOfStdin() -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\r\n") {
            text.removeLast()  // "\r\n" is one Character
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        return text
    }

    /// One line read from stdin after writing `prompt` to stderr; it ends on Enter (a ciphertext
    /// holds no line break, so a pasted SMS is one line). Nil at the end of input (Ctrl-D).
    static func promptedLine(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = readLine(strippingNewline: true) else { return nil }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    /// Warns that `what` was given as an argument, where other users and the shell's history see it.
    static func warnAboutArgument(_ what: String, instead advice: String) {
        Output.warning(
            "the \(what) was given on the command line, where every local user can read it (/proc) and the shell keeps it in its history; \(advice).")
    }

    /// Calls `body` with each line of stdin (1-based number, line without its newline).
    static func forEachLine(_ body: (Int, String) throws -> Void) rethrows {
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            try body(number, line)
        }
    }
}

/// Runs a `--lines` batch: one result line per input line; a failed line prints an empty
/// result line and its error on stderr, and the batch goes on.
struct LineBatch {
    private(set) var failures = 0
    private(set) var total = 0

    /// Runs `body` on each stdin line (1-based number, line) and prints what it returns, or an
    /// empty line and the error; call ``finish()`` when done.
    static func overStdin(_ body: (Int, String) throws -> String) -> LineBatch {
        var batch = LineBatch()
        TextInput.forEachLine { number, line in
            batch.total = number
            batch.process(number) { try body(number, line) }
        }
        return batch
    }

    mutating func process(_ number: Int, _ body: () throws -> String) {
        do {
            Output.line(try body())
        } catch {
            failures += 1
            Output.line("")
            Output.diagnostic("line \(number): " + ErrorReport.message(for: error))
        }
    }

    /// Throws status 65 when any line failed.
    func finish() throws {
        if failures > 0 {
            throw CLIError("\(failures) of \(total) lines failed; see the messages above.", status: .dataError)
        }
    }
}
