import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault import`: items from a Bitwarden or KeePassXC export.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import items from a Bitwarden JSON or KeePassXC CSV export.",
            discussion: """
                Prints how many items were imported and, for each entry left out, its position, title and \
                why (not a login, no password, a title the vault refuses, already in the vault, another item \
                with its title). Importing the same file again adds nothing. The file holds passwords in the \
                clear: delete it (shred) afterwards.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Option(help: ArgumentHelp("bitwarden-json or keepassxc-csv.", valueName: "format"))
        var format: VaultFormat

        @Argument(help: "The export file.")
        var file: String

        @Flag(help: "Print one JSON object {imported, skipped: [{position, title, reason}]}.")
        var json = false

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError("The file \(file) cannot be read; check its name and permissions.", status: .notFound)
            }
            let result = try Vault.importItems(data, format: format, into: try StoreAccess.unlock(global), now: Date())
            if json {
                Output.line(try Output.json(result))
                return
            }
            Output.line("Imported \(result.imported) item\(result.imported == 1 ? "" : "s"), skipped \(result.skipped.count).")
            for skip in result.skipped {
                Output.line(["skipped", skip.position, skip.title, skip.reason].map { TerminalText.escaped($0) }.joined(separator: "\t"))
            }
        }
    }

    /// `smsgw vault export`: every item, passwords in the clear, to a new 0600 file.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every item, passwords in the clear, to a new file (0600) after a confirmation.",
            discussion: """
                --plaintext is required: the file holds every password readably. The command asks you to \
                type "export" on the terminal (--yes skips the question, for scripts); it never overwrites \
                a file. Each exported item is recorded in the vault's log.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Option(help: ArgumentHelp("bitwarden-json or keepassxc-csv.", valueName: "format"))
        var format: VaultFormat

        @Argument(help: "The new file to write.")
        var file: String

        @Flag(help: "Acknowledge that the file holds the passwords in the clear.")
        var plaintext = false

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func validate() throws {
            guard plaintext else {
                throw ValidationError("An export holds every password in the clear; add --plaintext to say you know.")
            }
        }

        func run() throws {
            if FileManager.default.fileExists(atPath: file) {
                throw CLIError("\(file) already exists; choose a new file name (an export never overwrites a file).", status: .dataError)
            }
            let store = try StoreAccess.unlock(global)
            if !yes {
                try Confirmation.require(
                    typing: "export", prompt: "Every password will be written in the clear to \(file). Type \"export\" to go on: ")
            }
            let data = try Vault.export(format: format, from: store, now: Date())
            try Vault.writeExport(data, to: file)
            Output.line("Exported the vault to \(file) (mode 0600); delete it (shred) when it has served.")
        }
    }
}
