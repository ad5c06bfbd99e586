import Foundation

/// The two-factor login code as the CLI reads it: SMSGW_TOTP_CODE for scripts, else a masked
/// prompt on the terminal. When to ask (right after the passphrase, before the unlock, whatever
/// the passphrase) is ``Login``'s rule; only the asking is the CLI's.
enum LoginCode {
    /// The code from SMSGW_TOTP_CODE or the terminal.
    ///
    /// - Throws: ``CLIError`` 77 when neither is available or nothing was typed.
    static func read() throws -> String {
        if let code = ProcessInfo.processInfo.environment["SMSGW_TOTP_CODE"], !code.isEmpty { return code }
        guard let terminal = Terminal.open() else {
            throw CLIError(
                "Two-factor login is on and there is no terminal to ask for the code; set SMSGW_TOTP_CODE to the current code.",
                status: .authentication)
        }
        return try terminal.readMasked(prompt: "Authentication code: ")
    }
}
