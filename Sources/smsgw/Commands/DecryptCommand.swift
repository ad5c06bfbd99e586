import ArgumentParser
import Foundation
import Logging
import SMSCipher
import Store

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
        try LineBatch.overStdin { number, line in
            try open(line, store: store, logger: logger, line: number, escape: onTerminal ? TerminalText.escaped : Output.escapedLine)
        }.finish()
    }

    /// Opens one SMS in one write transaction; returns the text, or a resync reply to send back.
    private func open(
        _ input: String, store: UnlockedStore, logger: Logger, line: Int?, escape: (String) -> String
    ) throws -> String {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        let (opened, requestCode) = try store.write { tx -> (Opened, String?) in
            let contact = try tx.contact(named: name)
            let session = try tx.requireSession(for: contact)
            var rng = SystemRandomNumberGenerator()
            let result = try session.opening(text, now: Date(), using: &rng)
            try tx.save(result.session, for: contact)
            switch result.opened {
            case .message(let message):
                try tx.appendLog(NewLogEntry(
                    direction: .incoming, contact: contact, status: .decrypted, text: message.text, ciphertext: text))
            case .resync(let event):
                try tx.appendLog(NewLogEntry(
                    direction: .incoming, contact: contact, status: event.outcome == .completed ? .resynced : .resync,
                    text: Self.note(event, request: result.session.resyncRequest, contact: contact.name), ciphertext: text))
            }
            try tx.recordReceived(from: contact)
            let code = result.session.resyncRequest?.code
            if case .resync(let event) = result.opened, event.outcome != .completed { return (result.opened, code) }
            try tx.resetFailures(for: contact)
            return (result.opened, code)
        }
        let prefix = line.map { "line \($0): " } ?? ""
        switch opened {
        case .message(let message):
            logger.info(
                "Decrypted a message.",
                metadata: [LogKey.contact: "\(name)", LogKey.position: "\(message.position)", LogKey.epoch: "\(message.epoch)"])
            if message.wasLate { logger.info("The message arrived late.", metadata: [LogKey.contact: "\(name)"]) }
            return escape(message.text)
        case .resync(let event):
            logger.info("Applied a resync message.", metadata: [LogKey.contact: "\(name)", LogKey.epoch: "\(event.epoch)"])
            if event.outcome == .requested {
                Output.diagnostic(prefix + "this was a resync request (code \(requestCode ?? "?")); " + Self.requestAdvice(name: name))
                return ""
            }
            guard let reply = event.reply else {
                Output.diagnostic(prefix + "this was a resynchronisation message (epoch \(event.epoch), \(event.outcome)); nothing to send back.")
                return ""
            }
            Output.diagnostic(prefix + "this was a resynchronisation message (epoch \(event.epoch)); send the printed reply back to \(name).")
            return reply
        }
    }

    /// The log text of a resync message, with the code of a request.
    static func note(_ event: ResyncEvent, request: ResyncRequest?, contact: String) -> String {
        switch event.outcome {
        case .requested:
            return "Resync requested by \(contact) (epoch \(event.epoch), code \(request?.code ?? "?")), waiting for the operator."
        case .completed: return "Resync completed: new keys in force (epoch \(event.epoch))."
        case .repeated: return "Resync handshake repeated (epoch \(event.epoch)); answer printed once more."
        case .superseded: return "Resync handshake superseded by this side's own (epoch \(event.epoch)); nothing changed."
        }
    }

    /// What to do about a request: compare the code, then accept or reject.
    static func requestAdvice(name: String) -> String {
        "nothing changes until you decide: confirm the code with \(name), then run `smsgw resync \(Shell.quote(name)) --accept` (it prints the answer to send back), or `--reject` if \(name) did not ask."
    }
}
