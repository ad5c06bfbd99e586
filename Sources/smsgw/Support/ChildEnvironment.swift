import Foundation
import Gateway
import TerminalIO

/// The environment smsgw hands to a program it starts (`vault exec`'s command, the shell that
/// clears the clipboard): its own, less every variable that holds or points to the account's
/// passphrase, a login code or the database's password, which the program has no business reading.
enum ChildEnvironment {
    /// The variables left out.
    static let secrets: Set<String> = [
        PassphraseSource.account.variable, PassphraseSource.account.fileVariable, PassphraseSource.new.variable,
        PassphraseSource.new.fileVariable, LoginCode.variable, StoreSettings.passwordVariable, "SMSGW_STORE_PASSWORD_FILE",
    ]

    /// This process's environment without ``secrets``, with `extra` added.
    static func make(adding extra: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !secrets.contains($0.key) }.merging(extra) { $1 }
    }
}
