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
        abstract: "Encrypt a text for a contact into 160-character SMS: one, or one per part of a long text.",
        discussion: """
            Left out, the text is typed at a prompt when stdin is a terminal, else read from stdin (as \
            for `-`); an argument works, with a warning. The new key state and the log entry commit \
            before the ciphertext is printed, so a crash never reuses a pad. A text over 141 septets \
            becomes parts, one line each: send every line. --lines: one message of one SMS per \
            stdin line, one ciphertext per output line. --qr draws each SMS as a QR code above its \
            line, for a phone's camera to copy into its SMS app. See docs/CLI.md.
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

    @Option(parsing: .unconditional, help: "The most SMS a long text may take, 1 to 32 (with --lines: 1).")
    var maxParts: Int?

    @Flag(
        help: "Print {\"id\",\"contact\",\"ciphertext\",\"ciphertexts\",\"parts\",\"position\"} as JSON (one object per line with --lines)."
    )
    var json = false

    @Flag(help: "Draw each SMS as a QR code above its line, for a phone's camera (light text on a dark terminal).")
    var qr = false

    @Flag(help: "Draw the QR codes for dark text on a light background.")
    var lightBackground = false

    func validate() throws {
        if lines, let text, text != "-" {
            throw ValidationError("--lines reads stdin; leave out the text argument.")
        }
        if qr, lines || json { throw ValidationError("--qr draws for a person to scan; leave out --lines and --json.") }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        let logger = global.makeLogger()
        if !lines {
            let input = try TextInput.read(text, prompt: "Text for \(name): ")
            Output.line(try seal(input, store: store, logger: logger, line: nil))
            return
        }
        try LineBatch.overStdin(describing: ErrorReport.message) { number, line in
            try seal(line, store: store, logger: logger, line: number)
        }.finish()
    }

    /// Seals one text in one write transaction and returns the ciphertext once committed.
    private func seal(_ input: String, store: UnlockedStore, logger: Logger, line: Int?) throws -> String {
        var rng = SystemRandomNumberGenerator()
        let sealed = try Transliterated.explaining(transliterate) {
            try Messages.encrypt(
                input, for: name, transliterate: transliterate, maxParts: maxParts ?? (lines ? 1 : Messages.defaultMaxParts),
                store: store, now: Date(), using: &rng)
        }
        Output.report(sealed.replacements, line: line)
        logger.info("Encrypted a message.", metadata: [LogKey.contact: "\(sealed.contact)", LogKey.position: "\(sealed.position)"])
        if sealed.ciphertexts.count > 1, !json {
            Output.diagnostic("The text takes \(sealed.ciphertexts.count) SMS, one per line below; send them all.")
        }
        if json { return try Output.json(sealed) }
        guard qr else { return sealed.ciphertext }
        // Each SMS under its own code; the line stays for a paste. A ciphertext always fits one.
        return try sealed.ciphertexts.map { ciphertext in
            try QRDrawing.draw(text: ciphertext, invert: !lightBackground, instead: "leave out --qr") + ciphertext
        }.joined(separator: "\n")
    }
}
