import ArgumentParser
import Foundation
import Store

/// `smsgw log`: the message log, oldest first.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show the message log (time, direction, contact, status, text), oldest first.",
        discussion: """
            Plain output is tab-separated: local ISO 8601 time, in/out, contact, status, text (with \
            `\\`, LF, CR escaped). --json prints JSON lines: one object per message with id, time, \
            direction, contact, number, status, text, ciphertext and error.

            --follow prints the newest --limit messages, then each new message as it is logged \
            (the store is read every 200 ms), until interrupted (Ctrl-C). A message already \
            printed is not printed again when its status changes (queued, sent, delivered); run \
            `smsgw log` for the current statuses.
            """,
        subcommands: [LogPruneCommand.self]
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(help: "Only this contact's messages.")
    var contact: String?

    @Option(help: "At most this many of the newest messages.")
    var limit: Int = 100

    @Flag(name: [.customShort("f"), .long], help: "Keep printing new messages as they are logged, until interrupted.")
    var follow = false

    /// How often `--follow` reads the store.
    static let followInterval: UInt32 = 200_000

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        let filter = try contact.map { name in try store.read { try $0.contact(named: name) } }
        let entries = try store.read { try $0.log(contact: filter, limit: limit) }
        try entries.forEach(show)
        guard follow else { return }
        var lastID = entries.last?.id ?? 0
        while true {
            let new = try store.read { try $0.log(contact: filter, limit: 500, afterId: lastID) }
            try new.forEach(show)
            if let last = new.last { lastID = last.id }
            // A full batch means more are waiting: read again at once.
            if new.count < 500 { usleep(Self.followInterval) }
        }
    }

    /// Prints one message as a JSON line or a tab-separated line.
    private func show(_ entry: LogEntry) throws {
        if json {
            Output.line(try Output.json(LogLine(entry)))
        } else {
            let who = entry.contactName ?? entry.remoteNumber ?? "-"
            let text = entry.text.map(Output.escapedLine) ?? entry.error ?? ""
            Output.line([Output.timestamp(entry.time), entry.direction.rawValue, who, entry.status.rawValue, text]
                .joined(separator: "\t"))
        }
    }

    /// One message as JSON; absent values are null so every line has the same keys.
    struct LogLine: Encodable {
        var entry: LogEntry
        init(_ entry: LogEntry) { self.entry = entry }

        enum CodingKeys: String, CodingKey {
            case id, time, direction, contact, number, status, text, ciphertext, error
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entry.id, forKey: .id)
            try container.encode(entry.time, forKey: .time)
            try container.encode(entry.direction.rawValue, forKey: .direction)
            try container.encode(entry.contactName, forKey: .contact)
            try container.encode(entry.remoteNumber, forKey: .number)
            try container.encode(entry.status.rawValue, forKey: .status)
            try container.encode(entry.text, forKey: .text)
            try container.encode(entry.ciphertext, forKey: .ciphertext)
            try container.encode(entry.error, forKey: .error)
        }
    }
}
