import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw vault`: a credential vault kept encrypted in the store (docs/VAULT.md).
///
/// Passwords never come from the command line: they are typed at a masked prompt or piped in with
/// `--password-stdin`, or made by the generator. `show` masks the password unless `--reveal`;
/// `copy` and `exec` use it without printing it.
struct VaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Keep passwords for websites and services, encrypted; generate strong ones.",
        discussion: """
            Items (title, username, website, notes, password, TOTP URI) are sealed under the data key; \
            nothing of an item is in the clear in the database. `vault generate` needs no passphrase. \
            Every use (reveal, copy, exec, code) and change is recorded in the vault's encrypted log.
            """,
        subcommands: [
            Add.self, List.self, Show.self, Edit.self, Remove.self, Copy.self, Exec.self, Code.self, Generate.self, Log.self, Audit.self,
            Import.self, Export.self, Share.self, Shares.self, Update.self, Revoke.self, Rotate.self,
        ]
    )

    /// The password for `title`: from the first line of stdin with `fromStdin`, else typed twice at
    /// a masked prompt (the first line of stdin when stdin is no terminal).
    static func readPassword(for title: String, fromStdin: Bool) throws -> String {
        if fromStdin {
            guard let line = try TextInput.firstLineOfStdin(), !line.isEmpty else {
                throw CLIError("--password-stdin was given but stdin held no password; pipe the password in.", status: .usage)
            }
            return line
        }
        let password = try SecretInput.read(nil, what: "password", prompt: "Password for \(title): ")
        if TextInput.stdinIsTerminal {
            let again = try SecretInput.read(nil, what: "password", prompt: "Password again: ")
            guard again == password else { throw CLIError("The two passwords differ; run the command again.", status: .usage) }
        }
        return password
    }

    /// The rest of stdin, for `--notes-stdin` (after the password's line when both come from stdin).
    static func readNotes() throws -> String {
        var lines: [String] = []
        try TextInput.forEachLine { _, line in lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// What a typed password's check found, as warnings on stderr.
    static func warn(about check: PasswordCheck?) {
        guard let check else { return }
        if check.strength.rating == .weak {
            Output.warning(
                "the password is weak (about \(Output.bits(check.strength.bits)) by estimate); `smsgw vault generate` makes a strong one.")
        }
        if !check.reusedBy.isEmpty {
            let titles = check.reusedBy.map { TerminalText.escaped($0) }.joined(separator: ", ")
            Output.warning("the same password is used by \(titles); a leak at one website then opens the others.")
        }
        if check.previouslyUsed { Output.warning("this item used the same password before.") }
    }
}
