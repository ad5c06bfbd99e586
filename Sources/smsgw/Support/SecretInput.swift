import Foundation

/// Codes and secrets (a pairing code, an OTP secret or URI): kept off the command line.
///
/// Left out (or given as `-`), the value is read from a masked prompt when stdin is a terminal,
/// else from the first line of stdin, so scripts pipe it in. Given as an argument it is
/// used, with a warning: every local user can read a command line in /proc, and the shell keeps
/// it in its history.
enum SecretInput {
    /// The value of `argument`, or one read as described above.
    ///
    /// - Parameters:
    ///   - what: What is asked for, for the warning and the errors ("pairing code").
    ///   - prompt: The masked prompt, e.g. "bob's pairing code: ".
    /// - Throws: ``CLIError`` 64 when nothing was typed or piped in.
    static func read(_ argument: String?, what: String, prompt: String) throws -> String {
        if let argument, argument != "-" {
            TextInput.warnAboutArgument(what, instead: "leave it out to type it at a masked prompt, or pipe it in")
            return argument
        }
        // On a terminal the value is typed masked, `-` or not: it must not show on the screen either.
        let value = try TextInput.stdinIsTerminal ? masked(prompt, what: what) : firstLineOfStdin()
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError("No \(what) was given; type it at the prompt or pipe it in on stdin.", status: .usage)
        }
        return value
    }

    /// One line typed with echo off on the controlling terminal.
    private static func masked(_ prompt: String, what: String) throws -> String {
        guard let terminal = Terminal.open() else { return firstLineOfStdin() }
        do {
            return try terminal.readMasked(prompt: prompt)
        } catch {
            // The terminal's own errors speak of passphrases; this one is about `what`.
            throw CLIError("No \(what) was typed; run the command again, or pipe it in on stdin.", status: .usage)
        }
    }

    /// The first line of stdin, without its line break.
    private static func firstLineOfStdin() -> String {
        guard let line = readLine(strippingNewline: true) else { return "" }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
}

/// A pairing code as a person types or pastes it: in one word or several (`7KQ2 M9XD …` arrives
/// as five arguments), with spaces, hyphens, dots, underscores, slashes or the dashes and spaces
/// of other keyboards and word processors between the groups.
enum PairingCodeInput {
    /// The words joined, every separator made a hyphen, for ``PairingCode/init(parsing:)``.
    static func normalised(_ words: [String]) -> String {
        var result = ""
        for scalar in words.joined(separator: "-").unicodeScalars {
            let separator = scalar.properties.isWhitespace || scalar.properties.generalCategory == .dashPunctuation
                || "._/:".unicodeScalars.contains(scalar)
            result.unicodeScalars.append(separator ? "-" : scalar)
        }
        return result
    }
}
