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
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(help: "Only this contact's messages.")
    var contact: String?

    @Option(help: "At most this many of the newest messages.")
    var limit: Int = 100

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        let entries = try store.read { reader in
            let filter = try contact.map { try reader.contact(named: $0) }
            return try reader.log(contact: filter, limit: limit)
        }
        for entry in entries {
            if json {
                Output.line(try Output.json(LogLine(entry)))
            } else {
                let who = entry.contactName ?? entry.remoteNumber ?? "-"
                let text = entry.text.map(Output.escapedLine) ?? entry.error ?? ""
                Output.line([Output.timestamp(entry.time), entry.direction.rawValue, who, entry.status.rawValue, text]
                    .joined(separator: "\t"))
            }
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
