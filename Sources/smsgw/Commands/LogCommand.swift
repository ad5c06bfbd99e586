import ArgumentParser
import Foundation
import Store

/// `smsgw log`: the message log, oldest first, and its changes as they happen.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show the message log (id, time, direction, contact, status, text), oldest first.",
        discussion: """
            Plain output is tab-separated: the message id (what `smsgw send` printed), local ISO \
            8601 time, in/out, contact (or the sender's number), status, text (or the error). \
            Fields are escaped so an SMS cannot drive the terminal: `\\` as `\\\\`, LF, CR, TAB as \
            `\\n`, `\\r`, `\\t`, other controls as `\\xHH`, bidirectional controls as `\\u{HHHH}`. \
            --json prints JSON lines, exact: one object per message with id, seq, time, direction, \
            contact, number, status, text, ciphertext and error.

            --follow prints the newest --limit messages, then every change as it is committed: a \
            new message, and each later change of a message's status (queued, sent, delivered or \
            failed), as one more line with the same id; a change's plain line shows the time of \
            the change and, instead of the text, the error if any. Each JSON line carries `seq`, \
            the change feed's cursor: `--since SEQ` prints the changes after it (and with \
            --follow goes on following), so a consumer that stopped resumes without a gap or a \
            repeat.
            """,
        subcommands: [LogPruneCommand.self]
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(help: "Only this contact's messages.", completion: .contactNames)
    var contact: String?

    @Option(help: "At most this many of the newest messages (without --since).")
    var limit: Int = 100

    @Flag(name: [.customShort("f"), .long], help: "Keep printing changes as they are committed, until interrupted.")
    var follow = false

    @Option(help: ArgumentHelp("Print the changes after this cursor (the `seq` of a JSON line) instead of the newest messages.", valueName: "seq"))
    var since: Int64?

    /// How long `--follow` waits before looking for changes again when it found none.
    static let followInterval: Duration = .milliseconds(200)
    /// Changes read at once; a full batch is followed by another read at once.
    static let batchSize = 500

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
        if let since, since < 0 { throw ValidationError("--since takes a `seq` from `smsgw log --json`, 0 or more.") }
    }

    func run() async throws {
        let store = try StoreAccess.unlock(global)
        let filter = try contact.map { name in try store.read { try $0.contact(named: name) } }
        var cursor: Int64
        if let since {
            cursor = since
        } else {
            // The listing and the cursor come from one snapshot: nothing between them is lost or repeated.
            let (entries, latest) = try store.read { reader in
                (try reader.log(contact: filter, limit: limit), try reader.latestLogSequence())
            }
            try entries.forEach { try show($0, event: nil) }
            cursor = latest
            guard follow else { return }
        }
        while true {
            let events = try store.read { try $0.logEvents(after: cursor, contact: filter, limit: Self.batchSize) }
            for event in events {
                try show(event.entry, event: event)
                cursor = event.sequence
            }
            if events.count == Self.batchSize { continue }
            guard follow else { return }
            try await Task.sleep(for: Self.followInterval)
        }
    }

    /// Prints a message (as it is now), or one event of it, as a JSON line or a tab-separated line.
    private func show(_ entry: LogEntry, event: LogEvent?) throws {
        if json {
            Output.line(try Output.json(LogLine(entry, event: event)))
            return
        }
        let who = entry.contactName ?? entry.remoteNumber ?? "-"
        let status = event?.status ?? entry.status
        let detail = (event?.isNew == false) ? entry.error : (entry.text ?? entry.error)
        let fields = [
            "\(entry.id)", Output.timestamp(event?.time ?? entry.time), entry.direction.rawValue, who, status.rawValue,
            detail ?? "",
        ]
        Output.line(fields.map(TerminalText.escaped).joined(separator: "\t"))
    }

    /// One message as JSON, at an event when following; absent values are null so every line has
    /// the same keys.
    struct LogLine: Encodable {
        var entry: LogEntry
        var event: LogEvent?

        init(_ entry: LogEntry, event: LogEvent?) {
            self.entry = entry
            self.event = event
        }

        enum CodingKeys: String, CodingKey {
            case id, seq, time, direction, contact, number, status, text, ciphertext, error
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entry.id, forKey: .id)
            try container.encode(event?.sequence ?? entry.sequence, forKey: .seq)
            try container.encode(entry.time, forKey: .time)
            try container.encode(entry.direction.rawValue, forKey: .direction)
            try container.encode(entry.contactName, forKey: .contact)
            try container.encode(entry.remoteNumber, forKey: .number)
            try container.encode((event?.status ?? entry.status).rawValue, forKey: .status)
            try container.encode(entry.text, forKey: .text)
            try container.encode(entry.ciphertext, forKey: .ciphertext)
            try container.encode(entry.error, forKey: .error)
        }
    }
}
