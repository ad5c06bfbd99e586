import ArgumentParser
import Foundation
import Logging
import Operations
import SMSCipher
import Store
import TerminalIO

/// `smsgw decrypt`: verifies an SMS, then commits the new state and the log entry together.
struct DecryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Verify and decrypt a 160-character SMS from a contact.",
        discussion: """
            Left out, the SMS is pasted at a prompt when stdin is a terminal, else read from stdin (as \
            for `-`): pasting is safer than an argument, whose `'`, `"`, `$`, `!` a shell changes. Nothing \
            changes unless it verifies (exit 65 with the reason). A resync request is only kept until \
            `smsgw resync NAME --accept` or `--reject`. --lines: one SMS per stdin line, one text per \
            output line. See docs/CLI.md.
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
            let input = try TextInput.readCiphertext(
                ciphertext, prompt: "Paste the SMS from \(name): ", length: ProtocolConstants.wireLength,
                counting: WireAlphabet.characterCount)
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
        let applied: AppliedMessage
        do {
            applied = try Messages.decrypt(input, from: name, store: store, now: Date(), using: &rng)
        } catch CipherError.notAuthentic {
            throw CLIError(ErrorReport.message(for: CipherError.notAuthentic) + " " + resyncHint(store), status: .dataError)
        } catch CipherError.beyondWindow(let ahead) {
            throw CLIError(ErrorReport.message(for: CipherError.beyondWindow(ahead: ahead)) + " " + resyncHint(store), status: .dataError)
        }
        let prefix = line.map { "line \($0): " } ?? ""
        let contact = applied.contact
        switch applied.content {
        case .text(let message):
            logger.info(
                "Decrypted a message.",
                metadata: [LogKey.contact: "\(contact)", LogKey.position: "\(message.position)", LogKey.epoch: "\(message.epoch)"])
            if message.wasLate { logger.info("The message arrived late.", metadata: [LogKey.contact: "\(contact)"]) }
            return escape(message.text)
        case .part(let part):
            guard let text = part.text, part.received == part.count else {
                Output.diagnostic(prefix + part.note + (part.text == nil ? "" : " Its text follows."))
                return part.text.map(escape) ?? ""
            }
            return escape(text)
        case .acknowledgement(let acknowledgement):
            Output.diagnostic(
                prefix
                    + "this was an acknowledgement from \(contact)'s gateway of \(acknowledgement.positions) message(s); \(acknowledgement.messages.count) of yours are now acknowledged."
            )
            return ""
        case .typed(let typed):
            Output.diagnostic(
                prefix + "this was a typed message (\(typed.payload.kind)), which this version keeps in the log without acting on it.")
            return ""
        case .resync(let resync):
            logger.info("Applied a resync message.", metadata: [LogKey.contact: "\(contact)", LogKey.epoch: "\(resync.epoch)"])
            if resync.outcome == .requested {
                Output.diagnostic(
                    prefix + "this was a resync request (code \(resync.requestCode ?? "?")); " + Self.requestAdvice(name: contact))
                return ""
            }
            guard case .byHand(let answer) = resync.answer else {
                Output.diagnostic(
                    prefix + "this was a resynchronisation message (epoch \(resync.epoch), \(resync.outcome)); nothing to send back.")
                return ""
            }
            Output.diagnostic(
                prefix + "this was a resynchronisation message (epoch \(resync.epoch)); send the printed reply back to \(contact).")
            return answer
        }
    }

    /// The resync that helps when the contact's messages keep failing: over SMS, or by new
    /// pairing codes for a copy-and-paste peer (no number), which cannot resync over SMS.
    private func resyncHint(_ store: UnlockedStore) -> String {
        let command = "smsgw resync \(Shell.quote(name))"
        guard (try? Contacts.contact(named: name, store: store).number) == nil else { return "Here that is `\(command)`." }
        return "Here that is `\(command) --manual`: \(name) has no number, so new pairing codes."
    }

    /// What to do about a request: compare the code, then accept or reject.
    static func requestAdvice(name: String) -> String {
        "nothing changes until you decide: confirm the code with \(name), then run `smsgw resync \(Shell.quote(name)) --accept` (it prints the answer to send back), or `--reject` if \(name) did not ask."
    }
}
