import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw audit`: who did what in the console, the API and with operator commands.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the audit list: logins, sends, resyncs, token and operator changes, newest first.",
        discussion: "Tab-separated: id, time, actor, action, target, outcome, address. --json: one array. See docs/CLI.md."
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Option(parsing: .unconditional, help: "At most this many lines (1 to 1000).")
    var limit: Int = 100

    @Option(parsing: .unconditional, help: ArgumentHelp("Only lines older than this id (the next page).", valueName: "id"))
    var before: Int64?

    @Flag(help: "Print a JSON array of entries.")
    var json = false

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit is 1 to 1000.") }
        if let before, before < 1 { throw ValidationError("--before is a line's id, a whole number above 0.") }
    }

    func run() throws {
        let entries = try Audit.list(limit: limit, before: before, in: try StoreAccess.unlock(global))
        if json { return Output.line(try Output.json(entries)) }
        for entry in entries {
            let actor = entry.actorName.map { "\(entry.actor) \($0)" } ?? entry.actor
            let fields = [
                "\(entry.id)", Output.timestamp(entry.time), actor, entry.action, entry.target ?? "-", entry.outcome, entry.address ?? "-",
            ]
            Output.line(fields.map(TerminalText.escaped).joined(separator: "\t"))
        }
    }
}
