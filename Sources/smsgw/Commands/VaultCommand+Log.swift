import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault log`: the vault's encrypted event log, oldest first.
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "Show the vault's event log (created, edited, revealed, copied, exec'd, …), oldest first.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "Only the events of the item with this title.")
        var title: String?

        @Flag(help: "Print one JSON array.")
        var json = false

        func run() throws {
            let events = try Vault.log(titled: title, in: try StoreAccess.unlock(global))
            if json {
                Output.line(try Output.json(events))
                return
            }
            if events.isEmpty { Output.diagnostic("No vault events yet.") }
            for event in events {
                let fields = [Output.timestamp(event.time), event.kind.rawValue, event.title] + (event.detail.map { [$0] } ?? [])
                Output.line(fields.map { TerminalText.escaped($0) }.joined(separator: "\t"))
            }
        }
    }
}
