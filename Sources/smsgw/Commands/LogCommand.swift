import ArgumentParser
import Foundation
import Operations
import Store
import TerminalIO

/// `smsgw log`: the message log, oldest first, and its changes as they happen.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show the message log (id, time, direction, contact, status, text), oldest first.",
        discussion: """
            Plain lines are tab-separated (id, time, in/out, contact, status, text), escaped so an SMS \
            cannot drive the terminal; --json prints exact JSON lines. --follow prints every change as it \
            is committed; --since SEQ resumes after a JSON line's `seq`. --contact, --direction and --state \
            narrow both (e.g. `--state failed -f` prints each message as it fails). See docs/CLI.md.
            """,
        subcommands: [LogShowCommand.self, LogPruneCommand.self, LogRetryCommand.self, LogCheckedCommand.self]
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(help: "Only this contact's messages.", completion: .contactNames)
    var contact: String?

    @Option(help: "Only messages going this way: in or out.")
    var direction: MessageDirection?

    @Option(help: "Only messages now in this status; following, the changes that put a message in it.")
    var state: MessageStatus?

    @Option(parsing: .unconditional, help: "At most this many of the newest messages (without --since; default 100).")
    var limit: Int?

    @Flag(name: [.customShort("f"), .long], help: "Keep printing changes as they are committed, until interrupted.")
    var follow = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Print the changes after this cursor (the `seq` of a JSON line) instead of the newest messages.", valueName: "seq"))
    var since: Int64?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if let since, since < 0 { throw ValidationError("--since takes a `seq` from `smsgw log --json`, 0 or more.") }
    }

    func run() async throws {
        let store = try StoreAccess.unlock(global)
        var cursor: Int64
        if let since {
            cursor = since
        } else {
            // The listing and the cursor come from one snapshot: nothing between them is lost or repeated.
            let listing = try MessageLog.recent(contact: contact, direction: direction, status: state, limit: limit ?? 100, store: store)
            for message in listing.messages { try show(message, change: nil) }
            cursor = listing.cursor
            guard follow else { return }
        }
        let changes = try MessageLog.changes(
            after: cursor, contact: contact, direction: direction, status: state, following: follow, listening: true, store: store)
        for try await change in changes {
            try show(change.message, change: change)
        }
    }

    /// Prints a message (as it is now), or one change of it, as a JSON line or a tab-separated line.
    private func show(_ message: LoggedMessage, change: LogChange?) throws {
        if json {
            Output.line(try change.map { try Output.json($0) } ?? Output.json(message))
            return
        }
        Output.line(Self.plainLine(message, change: change))
    }

    /// The tab-separated line of a message, or of one change of it: id, time, direction, contact
    /// (or number), status, and the text (a change shows its error instead), each field escaped.
    static func plainLine(_ message: LoggedMessage, change: LogChange? = nil) -> String {
        let who = message.contact ?? message.number ?? "-"
        let status = change?.status ?? message.status
        let detail = (change?.isNew == false) ? message.error : (message.text ?? message.error)
        let fields = [
            "\(message.id)", Output.timestamp(change?.time ?? message.time), message.direction.rawValue, who, status.rawValue,
            detail ?? "",
        ]
        return fields.map(TerminalText.escaped).joined(separator: "\t")
    }
}
