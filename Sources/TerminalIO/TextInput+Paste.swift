import Foundation
import Glibc
import SystemCalls

/// What a paste at a prompt leaves behind. A terminal hands a prompt one line at a time, so the
/// lines of a paste after the first would wait in its input and reach the shell once smsgw exits:
/// run there as commands (a ciphertext's `>` makes a file) and kept in the shell's history (a
/// text's words). So a prompt reads what it needs and discards the rest of a paste.
extension TextInput {
    /// How long a paste's further lines may take to arrive after its first (a terminal writes a
    /// paste at once; a person types far slower than this).
    static let pasteGap: Duration = .milliseconds(50)

    /// One line typed after `prompt`, for a text: a paste of several lines is refused whole, since
    /// the prompt cannot hold a line break and sending only the first line would cut the text.
    ///
    /// - Throws: ``TerminalInputError/severalLinesPasted`` (the rest of the paste discarded).
    static func promptedText(_ prompt: String) throws(TerminalInputError) -> String {
        let line = try promptedLine(prompt) ?? ""
        guard !discardPendingInput() else { throw .severalLinesPasted }
        return line
    }

    /// A ciphertext pasted after `prompt`: lines are joined until they hold `length` characters
    /// as `count` counts them (those a receiver reads: not whitespace or invisible formatting
    /// characters) (a paste that an app broke over lines, or its rest pasted after a second
    /// prompt), or until an empty line or the end of input; empty lines a paste starts with are
    /// skipped. Whatever was pasted after it is discarded, with a warning that says so.
    ///
    /// - Throws: ``TerminalInputError/inputTooLong(limit:)`` past ``inputLimit`` bytes without Enter.
    public static func promptedCiphertext(
        _ prompt: String, length: Int, counting characterCount: (String) -> Int
    ) throws(TerminalInputError) -> String {
        var text = try promptedLine(prompt) ?? ""
        // A paste that starts with a line break (copied with the line above the SMS): its first
        // line is empty and the SMS follows at once. Enter alone, with nothing after it, stops.
        while characterCount(text) == 0, inputPending(), let line = try firstLineOfStdin() { text = line }
        var count = characterCount(text)
        while count > 0, count < length {
            if !inputPending() {
                FileHandle.standardError.write(
                    Data("(\(count) of \(length) characters; paste the rest, or press Enter to stop): ".utf8))
            }
            guard let line = try firstLineOfStdin(), characterCount(line) > 0 else { break }
            text += line
            count = characterCount(text)
        }
        if discardPendingInput() {
            Output.warning(
                "more than one SMS was pasted; the first was read and the rest discarded: paste one SMS at a time, or pipe several in, one per line, with --lines."
            )
        }
        return text
    }

    /// Whether a whole line waits on stdin within ``pasteGap`` (a terminal in canonical mode
    /// reports only complete lines).
    static func inputPending() -> Bool {
        if StandardInput.holdsLine { return true }
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
        let ready = (try? SystemCall.poll(&descriptors, timeout: pasteGap)) ?? 0
        return ready > 0 && descriptors[0].revents & Int16(POLLIN) != 0
    }

    /// Discards what waits on the terminal's input, a last unfinished line included; returns
    /// whether a whole line was waiting (a paste of more than the prompt took).
    static func discardPendingInput() -> Bool {
        let pending = inputPending()
        StandardInput.discard()
        tcflush(STDIN_FILENO, TCIFLUSH)
        return pending
    }
}
