import ArgumentParser
import Foundation
import Gateway
import Store

/// `smsgw send`: seals a text for a contact and queues it for the daemon.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Queue an encrypted text for a contact; the daemon (`smsgw serve`) sends it.",
        discussion: """
            The text is the argument, or all of stdin for `-` (one trailing newline removed). The \
            new key state, the log entry (status `queued`) and the outbox row commit in one \
            transaction before anything is printed, so a crash never reuses a pad. Prints the \
            message id (the `id` of `smsgw log --json`); its status moves to sent and delivered as \
            the daemon works. When no daemon seems to run (no modem status updated in the last \
            5 minutes) a warning goes to stderr; the message stays queued until one does.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's name.")
    var name: String

    @Argument(help: "The text, or - to read it from stdin.")
    var text: String

    @Flag(help: "Replace common characters GSM-7 lacks (curly quotes, accents) and report each.")
    var transliterate = false

    @Flag(help: "Print {\"id\",\"contact\",\"position\"} as JSON.")
    var json = false

    /// A modem status older than this means no daemon is looking after the queue.
    static let daemonSilence: TimeInterval = 300

    func run() throws {
        let input = TextInput.argumentOrStdin(text)
        let store = try StoreAccess.unlock(global)
        let queued = try GatewayActions.queueText(input, to: name, store: store, transliterate: transliterate)
        if !queued.replacements.isEmpty {
            let list = queued.replacements.map { "'\($0.original)'→'\($0.replacement)' at \($0.position)" }
            Output.error("transliterated " + list.joined(separator: ", ") + ".")
        }
        let status = try GatewayActions.status(store: store)
        let contact = status.contacts.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.name ?? name
        if json {
            Output.line(try Output.json(SendResult(id: queued.logID, contact: contact, position: queued.position)))
        } else {
            Output.line("\(queued.logID)")
        }
        if Self.daemonSeemsRunning(status) {
            if !json {
                Output.error("Queued for \(contact); the daemon sends it shortly. Follow it with `smsgw log --follow --contact \(Shell.quote(contact))`.")
            }
        } else {
            Output.error(
                "smsgw: warning: no gateway daemon seems to be running (no modem reported in the last \(Int(Self.daemonSilence / 60)) minutes); the message stays queued until `smsgw serve` runs.")
        }
    }

    /// Whether a daemon recently recorded a modem that is not stopped.
    static func daemonSeemsRunning(_ status: GatewayStatus, now: Date = Date()) -> Bool {
        status.modems.contains { $0.state != "stopped" && now.timeIntervalSince($0.updatedAt) < daemonSilence }
    }

    struct SendResult: Encodable {
        var id: Int64
        var contact: String
        var position: UInt32
    }
}
