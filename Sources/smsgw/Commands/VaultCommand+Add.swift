import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault add`: a new item, its password typed, piped in or generated.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an item; the password is typed (masked), piped in with --password-stdin, or --generate'd.",
            discussion: """
                With --password-stdin the first line of stdin is the password; with --notes-stdin the rest \
                of stdin (all of it without --password-stdin) is the notes. A typed password is checked \
                against every item and its history (reuse is warned about) and its strength estimated; a \
                generated one is printed once with its entropy.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title (1 to 64 characters, unique without regard to case).")
        var title: String

        @Option(help: ArgumentHelp("The username or account at the website.", valueName: "name"))
        var username: String?

        @Option(help: ArgumentHelp("The website's address.", valueName: "url"))
        var url: String?

        @Flag(help: "Read the notes from stdin.")
        var notesStdin = false

        @Option(
            help: ArgumentHelp(
                "An otpauth://totp/ URI for `vault code`; it holds a secret, so better typed with `vault edit`.", valueName: "uri"))
        var totp: String?

        @Flag(help: "Read the password from the first line of stdin.")
        var passwordStdin = false

        @Flag(help: "Generate the password (see the generator options).")
        var generate = false

        @OptionGroup(title: "Generator options (with --generate)") var generator: GeneratorOptions

        @Flag(help: "Print the saved item and the password check as JSON.")
        var json = false

        func validate() throws {
            if passwordStdin, generate { throw ValidationError("Give --password-stdin or --generate, not both.") }
            if !generate, generator.length != nil || generator.classes != nil || generator.words != nil || generator.excludeAmbiguous {
                throw ValidationError("The generator options go with --generate.")
            }
        }

        func run() throws {
            if totp != nil {
                TextInput.warnAboutArgument(
                    "TOTP URI", instead: "add it with `smsgw vault edit TITLE --totp -` to type it at a masked prompt")
            }
            let generated = generate ? try generator.generate() : nil
            let password = try generated?.password ?? VaultCommand.readPassword(for: title, fromStdin: passwordStdin)
            let notes = notesStdin ? try VaultCommand.readNotes() : nil
            let draft = VaultDraft(
                title: title, username: username, url: url, notes: notes, password: password, totp: totp,
                generatedBits: generated?.bits)
            let saved = try Vault.add(draft, to: try StoreAccess.unlock(global), now: Date())
            if json {
                Output.line(try Output.json(saved))
                return
            }
            VaultCommand.warn(about: saved.check)
            if let generated {
                Output.line(generated.password)
                Output.diagnostic(
                    "Added \"\(saved.summary.title)\" with a generated password of \(Output.bits(generated.bits)) (\(generated.source))."
                )
            } else {
                Output.line("Added \"\(saved.summary.title)\".")
            }
        }
    }

    /// `smsgw vault edit`: changes fields; a new password keeps the old one in the history.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an item's title, username, website, notes, TOTP URI or password.",
            discussion: """
                An empty value clears a field (--username ''). --password asks for a new password at a \
                masked prompt (or reads it from stdin with --password-stdin); --generate makes one. The old \
                password is kept, encrypted, in the item's history (the last 10). --totp - asks for the URI \
                at a masked prompt.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The item's title.")
        var title: String

        @Option(help: ArgumentHelp("A new title.", valueName: "title"))
        var newTitle: String?

        @Option(help: ArgumentHelp("A new username ('' clears it).", valueName: "name"))
        var username: String?

        @Option(help: ArgumentHelp("A new website address ('' clears it).", valueName: "url"))
        var url: String?

        @Flag(help: "Replace the notes with stdin (an empty stdin clears them).")
        var notesStdin = false

        @Option(help: ArgumentHelp("A new otpauth://totp/ URI ('' clears it, - asks for it masked).", valueName: "uri"))
        var totp: String?

        @Flag(help: "Ask for a new password at a masked prompt.")
        var password = false

        @Flag(help: "Read a new password from the first line of stdin.")
        var passwordStdin = false

        @Flag(help: "Generate a new password (see the generator options).")
        var generate = false

        @Flag(help: "Mark the password as known to someone who should not know it (listed by `vault audit` until changed).")
        var markExposed = false

        @OptionGroup(title: "Generator options (with --generate)") var generator: GeneratorOptions

        @Flag(help: "Print the saved item and the password check as JSON.")
        var json = false

        func validate() throws {
            if [password, passwordStdin, generate].filter({ $0 }).count > 1 {
                throw ValidationError("Give one of --password, --password-stdin or --generate.")
            }
        }

        func run() throws {
            let generated = generate ? try generator.generate() : nil
            var newPassword = generated?.password
            if password || passwordStdin { newPassword = try VaultCommand.readPassword(for: title, fromStdin: passwordStdin) }
            let uri = try totp.map { value in
                value == "-" ? try SecretInput.read(nil, what: "TOTP URI", prompt: "otpauth://totp/ URI for \(title): ") : value
            }
            let changes = VaultChanges(
                title: newTitle, username: username, url: url, notes: notesStdin ? try VaultCommand.readNotes() : nil,
                password: newPassword, totp: uri, generatedBits: generated?.bits, markExposed: markExposed)
            let saved = try Vault.edit(titled: title, changes, in: try StoreAccess.unlock(global), now: Date())
            if json {
                Output.line(try Output.json(saved))
                return
            }
            VaultCommand.warn(about: saved.check)
            if let generated {
                Output.line(generated.password)
                Output.diagnostic(
                    "Saved \"\(saved.summary.title)\" with a generated password of \(Output.bits(generated.bits)) (\(generated.source)).")
            } else {
                Output.diagnostic("Saved \"\(saved.summary.title)\".")
            }
        }
    }
}
