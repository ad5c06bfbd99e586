import ArgumentParser
import Foundation
import Operations
import Store
import TerminalIO

/// `smsgw send`: seals a text for a contact and queues it for the daemon.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Queue an encrypted text for a contact; the daemon (`smsgw serve`) sends it.",
        discussion: """
            Left out, the text is typed at a prompt when stdin is a terminal, else read from stdin (as \
            for `-`); an argument works, with a warning. The key state, the log entry and the outbox row \
            commit in one transaction; prints the message id (`smsgw log` and `smsgw status` use it) and \
            warns when no daemon runs. --lines: one message per stdin line, one id per output line. See \
            docs/CLI.md.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: "The contact's name.", completion: .contactNames)
    var name: String

    @Argument(help: "The text (visible to other users: better left out), or - to read stdin.")
    var text: String?

    @Flag(help: "Replace common characters GSM-7 lacks (curly quotes, accents) and report each.")
    var transliterate = false

    @Flag(help: "Print {\"id\",\"contact\",\"position\",\"parts\"} as JSON (one object per line with --lines).")
    var json = false

    @Flag(help: "Queue one message per stdin line; print one id per line.")
    var lines = false

    @Option(parsing: .unconditional, help: "The most SMS a long text may take, 1 to 32 (default 8).")
    var maxParts = Messages.defaultMaxParts

    func validate() throws {
        if lines, let text, text != "-" {
            throw ValidationError("--lines reads stdin; leave out the text argument.")
        }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        var contact = name
        if lines {
            let batch = LineBatch.overStdin(describing: ErrorReport.message) { number, line in
                try queue(line, store: store, line: number, contact: &contact)
            }
            adviseAboutDaemon(contact: contact)
            adviseAboutSync(contact: contact, store: store)
            try batch.finish()
            return
        }
        let input = try TextInput.read(text, prompt: "Text for \(name): ")
        Output.line(try queue(input, store: store, line: nil, contact: &contact))
        adviseAboutDaemon(contact: contact)
        adviseAboutSync(contact: contact, store: store)
    }

    /// Warns, with the advice `status` gives, when messages in a row failed verification: what is
    /// sent before a resync may not open there. (Restored keys refuse the text instead.)
    private func adviseAboutSync(contact: String, store: UnlockedStore) {
        guard let status = try? Contacts.contact(named: contact, store: store), let advice = status.sync.advice,
            case .resync = advice
        else { return }
        Output.warning(
            "\(advice.sentence(naming: status.name)) Until the resync completes, what is sent to \(status.name) may not open there.")
    }

    /// Queues one text in one transaction; returns the line to print (the id, or the JSON object).
    private func queue(_ input: String, store: UnlockedStore, line: Int?, contact: inout String) throws -> String {
        var rng = SystemRandomNumberGenerator()
        let plan = try Transliterated.explaining(transliterate) {
            try Messages.plan(input, transliterate: transliterate, maxParts: maxParts)
        }
        if plan.messages > 1 {
            Output.diagnostic((line.map { "line \($0): " } ?? "") + "the text takes \(plan.messages) SMS (\(plan.septets) septets).")
        }
        let queued = try Transliterated.explaining(transliterate) {
            try Messages.queue(
                input, to: name, transliterate: transliterate, maxParts: maxParts, store: store, now: Date(), using: &rng)
        }
        // The daemon claims it at once instead of at its next fallback read.
        Daemon.wake(in: global.dataDirectory)
        Output.report(queued.replacements, line: line)
        contact = queued.contact
        return json ? try Output.json(queued) : "\(queued.logID)"
    }

    /// Says where to follow the message, or warns when no daemon runs.
    private func adviseAboutDaemon(contact: String) {
        if Self.daemonRuns(global) {
            if !json {
                Output.diagnostic(
                    "Queued for \(contact); the daemon sends it shortly. Follow it with `smsgw log --follow --contact \(Shell.quote(contact))`."
                )
            }
        } else {
            Output.warning("no gateway daemon is running on this data directory; the message stays queued until `smsgw serve` runs.")
        }
    }

    /// Whether a daemon runs on the data directory (``Operations/Daemon/state(in:)``).
    static func daemonRuns(_ options: GlobalOptions) -> Bool {
        Daemon.state(in: options.dataDirectory).running
    }
}
