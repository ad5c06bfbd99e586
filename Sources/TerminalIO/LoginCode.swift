public import Foundation

/// The two-factor login code as a terminal front end reads it: SMSGW_TOTP_CODE for scripts, else
/// a masked prompt on the terminal. When to ask (right after the passphrase, before the unlock,
/// whatever the passphrase) is the application layer's rule; only the asking is done here.
public enum LoginCode {
    /// The variable a script sets to the current code.
    public static let variable = "SMSGW_TOTP_CODE"

    /// The code from ``variable`` or the terminal.
    ///
    /// - Throws: ``TerminalInputError`` when neither is available or nothing was typed.
    public static func read(
        environment: [String: String] = ProcessInfo.processInfo.environment, openTerminal: () -> Terminal? = Terminal.open
    ) throws(TerminalInputError) -> String {
        if let code = environment[variable], !code.isEmpty { return code }
        guard let terminal = openTerminal() else { throw .noCodeSource(variable: variable) }
        return try terminal.readMasked(prompt: "Authentication code: ")
    }

    /// Whether ``read(environment:openTerminal:)`` has somewhere to read a code from: a front end
    /// that must show something once before asking (a new secret) checks first.
    public static func isAvailable(
        environment: [String: String] = ProcessInfo.processInfo.environment, openTerminal: () -> Terminal? = Terminal.open
    ) -> Bool {
        if let code = environment[variable], !code.isEmpty { return true }
        return openTerminal() != nil
    }
}
