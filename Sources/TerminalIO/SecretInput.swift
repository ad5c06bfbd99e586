import Foundation

/// Codes and secrets (a pairing code, an OTP secret or URI): kept off the command line.
///
/// Left out (or given as `-`), the value is read from a masked prompt when stdin is a terminal,
/// else from the first line of stdin, so scripts pipe it in. Given as an argument it is
/// used, with a warning: every local user can read a command line in /proc, and the shell keeps
/// it in its history.
public enum SecretInput {
    /// The value of `argument`, or one read as described above.
    ///
    /// - Parameters:
    ///   - what: What is asked for, for the warning and the errors ("pairing code").
    ///   - prompt: The masked prompt, e.g. "bob's pairing code: ".
    /// - Throws: ``TerminalInputError/nothingGiven(what:)`` or
    ///   ``TerminalInputError/nothingTypedFor(what:)`` when nothing was typed or piped in.
    public static func read(_ argument: String?, what: String, prompt: String) throws(TerminalInputError) -> String {
        if let argument, argument != "-" {
            TextInput.warnAboutArgument(what, instead: "leave it out to type it at a masked prompt, or pipe it in")
            return argument
        }
        // On a terminal the value is typed masked, `-` or not: it must not show on the screen either.
        let value = try TextInput.stdinIsTerminal ? masked(prompt, what: what) : try TextInput.firstLineOfStdin() ?? ""
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw .nothingGiven(what: what) }
        return value
    }

    /// A new secret (an operator's password): typed twice at a masked prompt when stdin is a
    /// terminal, else the first line of stdin. Never taken from an argument.
    ///
    /// - Throws: ``TerminalInputError/passphrasesDiffer`` when the two typings differ,
    ///   ``TerminalInputError/nothingGiven(what:)`` when nothing was typed or piped in.
    public static func readNew(what: String, prompt: String) throws(TerminalInputError) -> String {
        let value: String?
        if TextInput.stdinIsTerminal, let terminal = Terminal.open() {
            let first = try terminal.readMasked(prompt: prompt)
            guard try terminal.readMasked(prompt: "Repeat it: ") == first else { throw .passphrasesDiffer }
            value = first
        } else {
            value = try TextInput.firstLineOfStdin()
        }
        guard let given = value, !given.trimmingCharacters(in: .whitespaces).isEmpty else { throw .nothingGiven(what: what) }
        return given
    }

    /// One line typed with echo off on the controlling terminal.
    private static func masked(_ prompt: String, what: String) throws(TerminalInputError) -> String {
        guard let terminal = Terminal.open() else { return try TextInput.firstLineOfStdin() ?? "" }
        do {
            return try terminal.readMasked(prompt: prompt)
        } catch {
            // The terminal's own errors speak of passphrases; this one is about `what`.
            throw .nothingTypedFor(what: what)
        }
    }
}
