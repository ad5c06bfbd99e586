import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault copy`: the password on the clipboard, cleared after a while.
    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Put an item's password on the clipboard (wl-copy or xclip), cleared after 30 s.",
            discussion: """
                The clipboard is cleared after --clear-after seconds unless it holds something else by \
                then. Without a display and wl-copy or xclip the command fails (exit 69) and copies nothing.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Option(parsing: .unconditional, help: ArgumentHelp("Seconds before the clipboard is cleared (1 to 600).", valueName: "seconds"))
        var clearAfter = 30

        func validate() throws {
            guard (1...600).contains(clearAfter) else { throw ValidationError("--clear-after must be 1 to 600 seconds.") }
        }

        func run() throws {
            guard let clipboard = Clipboard.current() else {
                throw CLIError(
                    "No clipboard is available (wl-copy under Wayland or xclip under X11, with a display); use `smsgw vault exec` or `show --reveal` instead.",
                    status: .unavailable)
            }
            let item = try Vault.use(titled: title, for: .copy, in: try StoreAccess.unlock(global), now: Date())
            try clipboard.put(item.password, clearingAfter: clearAfter)
            Output.line("Copied the password of \"\(TerminalText.escaped(item.title))\"; the clipboard is cleared in \(clearAfter) s.")
        }
    }

    /// `smsgw vault exec`: runs a command with the password in its environment or on its stdin.
    struct Exec: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "exec",
            abstract: "Run a command with the password in $SMSGW_VAULT_PASSWORD (or on its stdin), never in its argv.",
            discussion: """
                The command also gets the username in $SMSGW_VAULT_USERNAME, and not the variables that give \
                smsgw the account's passphrase or a login code. With --stdin the password and a \
                newline are written to the command's stdin instead of the environment. smsgw exits with the \
                command's status. Example: smsgw vault exec mail -- sh -c 'curl -u "me:$SMSGW_VAULT_PASSWORD" …'
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Option(help: ArgumentHelp("The environment variable for the password.", valueName: "name"))
        var env = "SMSGW_VAULT_PASSWORD"

        @Flag(help: "Write the password to the command's stdin instead.")
        var stdin = false

        @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty else { throw ValidationError("Give the command to run after --.") }
            guard env.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else {
                throw ValidationError("--env must be a variable name (letters, digits, underscores).")
            }
        }

        func run() throws {
            let name = URL(fileURLWithPath: command[0]).lastPathComponent
            // The command gets the item, never the account's passphrase from smsgw's own environment.
            var environment = ChildEnvironment.make()
            // Found before the item is used, so a mistyped command is not logged as run.
            guard let executable = ExecutableSearch.find(command[0], path: environment["PATH"]) else { throw Self.notStarted(name) }
            let item = try Vault.use(titled: title, for: .exec(command: name), in: try StoreAccess.unlock(global), now: Date())
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = Array(command.dropFirst())
            environment["SMSGW_VAULT_USERNAME"] = item.username ?? ""
            let input = Pipe()
            if stdin { process.standardInput = input } else { environment[env] = item.password }
            process.environment = environment
            do {
                try process.run()
            } catch {
                throw Self.notStarted(name)
            }
            if stdin {
                input.fileHandleForWriting.write(Data((item.password + "\n").utf8))
                try? input.fileHandleForWriting.close()
            }
            process.waitUntilExit()
            throw ExitCode(process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus)
        }

        /// The command cannot be run: not found, or not an executable file.
        static func notStarted(_ name: String) -> CLIError {
            CLIError("The command \(name) could not be started; check its name and PATH.", status: .unavailable)
        }
    }

    /// `smsgw vault code`: the current TOTP code of an item with a TOTP URI.
    struct Code: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "code", abstract: "Print the current TOTP code of an item.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        func run() throws {
            let code = try Vault.code(titled: title, in: try StoreAccess.unlock(global), now: Date())
            Output.line(code.code)
            Output.diagnostic("valid for \(code.validFor) more seconds.")
        }
    }
}
