import ArgumentParser
import Operations
import Store
import TerminalIO

/// `smsgw init`: creates the account that protects every key and message.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the account (username and passphrase) in the data directory.",
        discussion: """
            The passphrase is hashed with Argon2id (default m=64 MiB, t=3, p=1; the OWASP minimum \
            m=19 MiB, t=2 is the least accepted). When prompting, it is asked twice.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Option(help: "The account's username (1 to 64 characters).")
    var username: String

    @Option(
        name: .customLong("kdf-memory"), parsing: .unconditional,
        help: ArgumentHelp("Argon2id memory in MiB (at least 19).", valueName: "MiB"), transform: WholeNumber.aboveZero)
    var kdfMemory: UInt32 = 64

    @Option(
        name: .customLong("kdf-iterations"), parsing: .unconditional, help: ArgumentHelp("Argon2id passes (at least 2).", valueName: "n"),
        transform: WholeNumber.aboveZero)
    var kdfIterations: UInt32 = 3

    var parameters: Argon2Parameters {
        Argon2Parameters(memoryKiB: kdfMemory &* 1024, iterations: kdfIterations, parallelism: 1)
    }

    func validate() throws {
        guard kdfMemory <= 4096 else { throw ValidationError("--kdf-memory is at most 4096 MiB.") }
        do {
            try parameters.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let gateway = try StoreAccess.open(global, creating: true)
        // Said before the prompt, not after the passphrase was typed twice.
        try Account.requireNoAccount(in: gateway)
        let passphrase = try PassphraseSource.account.read(prompt: "New passphrase for smsgw: ", confirm: true)
        let store = try Account.create(in: gateway, username: username, passphrase: passphrase, parameters: parameters)
        Output.line("Created the account \"\(store.username)\" in \(gateway.directory.path) (Argon2id \(parameters)).")
        Output.line("Next: add a contact with `smsgw contact add NAME`.")
    }
}
