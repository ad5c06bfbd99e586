import ArgumentParser
import Foundation
import Logging
import Operations
import Store
import TerminalIO

/// `smsgw encrypt`: one text in, one 160-character SMS out, the state saved before it is printed.
struct EncryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt a text for a contact into one 160-character SMS.",
        discussion: """
            The new key state, and a log entry with the text and the ciphertext, are committed in one \
            transaction before the ciphertext is printed, so a crash never reuses a pad. Left out, \
            the text is typed at a prompt (one line, Enter ends it) when stdin is a terminal, else it \
            is all of stdin (one trailing newline removed), as for `-`. A text given as an argument \
            works but is visible to every local user and kept in the shell's history: a warning \
            says so. An empty text is refused before any key is used. With --lines, each stdin line \
            is one message and each output line its ciphertext; a failed line prints an empty line \
            and its error on stderr ("smsgw: line N: …"), and the exit status is 65 at the end.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: "The contact's name.", completion: .contactNames)
    var name: String

    @Argument(help: "The text (visible to other users: better left out), or - to read stdin.")
    var text: String?

    @Flag(help: "Replace common characters GSM-7 lacks (typographic quotes, accents, dashes) and report each.")
    var transliterate = false

    @Flag(help: "Read one message per stdin line; print one ciphertext per line.")
    var lines = false

    func validate() throws {
        if lines, let text, text != "-" {
            throw ValidationError("--lines reads stdin; leave out the text argument.")
        }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        let logger = global.makeLogger()
        if !lines {
            let input = TextInput.read(text, prompt: "Text for \(name): ", warnIfGiven: true)
            Output.line(try seal(input, store: store, logger: logger, line: nil))
            return
        }
        try LineBatch.overStdin(describing: ErrorReport.message) { number, line in try seal(line, store: store, logger: logger, line: number) }.finish()
    }

    /// Seals one text in one write transaction and returns the ciphertext once committed.
    private func seal(_ input: String, store: UnlockedStore, logger: Logger, line: Int?) throws -> String {
        var rng = SystemRandomNumberGenerator()
        let sealed = try Transliterated.explaining(transliterate) {
            try Messages.encrypt(input, for: name, transliterate: transliterate, store: store, now: Date(), using: &rng)
        }
        Output.report(sealed.replacements, line: line)
        logger.info("Encrypted a message.", metadata: [LogKey.contact: "\(sealed.contact)", LogKey.position: "\(sealed.position)"])
        return sealed.ciphertext
    }
}
