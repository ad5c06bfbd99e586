import ArgumentParser
import Foundation
import Logging
import Operations
import Store
import TerminalIO

/// `smsgw decrypt`: verifies an SMS, then commits the new state and the log entry together.
struct DecryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Verify and decrypt a 160-character SMS from a contact.",
        discussion: """
            Left out, the SMS is pasted at a prompt ("Paste the SMS from NAME:", Enter ends it) \
            when stdin is a terminal, else it is read from stdin, as for `-`. Pasting is the form \
            that works for every ciphertext: its alphabet holds `'`, `"`, `$`, `!` and the \
            backquote, which a shell changes in an argument. Nothing changes unless the message \
            verifies; a failure (altered, duplicate, too far ahead) exits 65 with the reason. A \
            resynchronisation message that answers this side's handshake completes it; one in \
            which the contact asks for a resync is only kept, with its six-digit code, until \
            `smsgw resync NAME --accept` (which prints the answer to send back) or `--reject`; a \
            repeat prints the answer again, once. On a terminal the text is printed with controls \
            escaped (see `smsgw log`), so an SMS cannot drive the terminal. With --lines, each \
            stdin line is one SMS and each \
            output line its text, with `\\`, LF and CR written as `\\\\`, `\\n`, `\\r`; a failed line \
            prints an empty line and its error on stderr ("smsgw: line N: …"), and the exit status \
            is 65 at the end.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: "The contact's name.", completion: .contactNames)
    var name: String

    @Argument(help: "The ciphertext, or - to read stdin (left out: pasted at a prompt on a terminal).")
    var ciphertext: String?

    @Flag(help: "Read one SMS per stdin line; print one text per line.")
    var lines = false

    func validate() throws {
        if lines, let ciphertext, ciphertext != "-" {
            throw ValidationError("--lines reads stdin; leave out the ciphertext argument.")
        }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        let logger = global.makeLogger()
        // On a terminal a decrypted text could drive it (CR, form feed are GSM-7): escape it.
        let onTerminal = TextInput.stdoutIsTerminal
        if !lines {
            let input = TextInput.read(ciphertext, prompt: "Paste the SMS from \(name): ", warnIfGiven: false)
            Output.line(try open(input, store: store, logger: logger, line: nil, escape: onTerminal ? TerminalText.escaped : { $0 }))
            return
        }
        try LineBatch.overStdin(describing: ErrorReport.message) { number, line in
            try open(line, store: store, logger: logger, line: number, escape: onTerminal ? TerminalText.escaped : Output.escapedLine)
        }.finish()
    }

    /// Opens one SMS in one write transaction; returns the text, or a resync answer to send back.
    private func open(
        _ input: String, store: UnlockedStore, logger: Logger, line: Int?, escape: (String) -> String
    ) throws -> String {
        var rng = SystemRandomNumberGenerator()
        let applied = try Messages.decrypt(input, from: name, store: store, now: Date(), using: &rng)
        let prefix = line.map { "line \($0): " } ?? ""
        let contact = applied.contact
        switch applied.content {
        case .text(let message):
            logger.info(
                "Decrypted a message.",
                metadata: [LogKey.contact: "\(contact)", LogKey.position: "\(message.position)", LogKey.epoch: "\(message.epoch)"])
            if message.wasLate { logger.info("The message arrived late.", metadata: [LogKey.contact: "\(contact)"]) }
            return escape(message.text)
        case .resync(let resync):
            logger.info("Applied a resync message.", metadata: [LogKey.contact: "\(contact)", LogKey.epoch: "\(resync.epoch)"])
            if resync.outcome == .requested {
                Output.diagnostic(prefix + "this was a resync request (code \(resync.requestCode ?? "?")); " + Self.requestAdvice(name: contact))
                return ""
            }
            guard case .byHand(let answer) = resync.answer else {
                Output.diagnostic(prefix + "this was a resynchronisation message (epoch \(resync.epoch), \(resync.outcome)); nothing to send back.")
                return ""
            }
            Output.diagnostic(prefix + "this was a resynchronisation message (epoch \(resync.epoch)); send the printed reply back to \(contact).")
            return answer
        }
    }

    /// What to do about a request: compare the code, then accept or reject.
    static func requestAdvice(name: String) -> String {
        "nothing changes until you decide: confirm the code with \(name), then run `smsgw resync \(Shell.quote(name)) --accept` (it prints the answer to send back), or `--reject` if \(name) did not ask."
    }
}
