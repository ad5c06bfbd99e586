import Foundation

/// Asks the person at the terminal to type a name before something irreversible.
public enum Confirmation {
    /// Returns when the line typed on the terminal equals `expected` (spaces around it ignored).
    ///
    /// - Throws: ``TerminalInputError/confirmationNeedsTerminal`` without a terminal,
    ///   ``TerminalInputError/confirmationMismatch(expected:)`` for anything else typed.
    public static func require(
        typing expected: String, prompt: String, openTerminal: () -> Terminal? = Terminal.open
    ) throws(TerminalInputError) {
        guard let terminal = openTerminal() else { throw .confirmationNeedsTerminal }
        let answer = terminal.readLine(prompt: prompt)?.trimmingCharacters(in: .whitespaces)
        guard answer == expected else { throw .confirmationMismatch(expected: expected) }
    }
}
