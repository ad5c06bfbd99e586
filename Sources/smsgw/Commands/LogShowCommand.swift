import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw log show`: one message and every status it took.
struct LogShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one message and every status it took (queued, sent, delivered, …).",
        discussion: """
            The message as `smsgw log` prints it, then one line per status it took (seq, time, status), \
            then its error (why it failed; for a typed message, a note on what was done with it) when it \
            has a text too. --json (an option of `smsgw log`) adds "history". Exits 66 for an unknown id.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: "The message id (what `smsgw send` printed; the first field of `smsgw log`).")
    var id: Int64

    // `--json` belongs to `log` too, which parses it first wherever it stands on the line.
    @ParentCommand var log: LogCommand

    func validate() throws {
        try log.refuseListingOptions(in: "show", json: true)
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        let history = try MessageLog.message(id: id, store: store)
        if log.json {
            Output.line(try Output.json(history))
            return
        }
        Output.line(LogCommand.plainLine(history.message))
        for change in history.history {
            Output.line("  \(change.sequence)\t\(Output.timestamp(change.time))\t\(TerminalText.escaped(change.status.rawValue))")
        }
        // The line above shows the text; why it failed would be nowhere else.
        if let error = history.message.error, history.message.text != nil {
            // A typed message's is a note on what was done with it (a vault share kept), not a failure.
            let label = history.message.status == .typed ? "note" : "error"
            Output.line("  \(label): \(TerminalText.escaped(error))")
        }
    }
}
