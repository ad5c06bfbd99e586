import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw log checked`: marks sent SMS never confirmed as checked with the contact, so they stop counting.
struct LogCheckedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checked",
        abstract: "Mark unconfirmed SMS as checked with the contact, so status stops counting them.",
        discussion:
            "Give a message id, or --all for every SMS status counts now. Exits 65 when none of the message's SMS waits for a confirmation, 66 for an unknown id. See docs/CLI.md."
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    // The listing's options belong to `log`, which parses them wherever they stand.
    @ParentCommand var log: LogCommand

    @Argument(help: "The message id (the first field of `smsgw log`).")
    var id: Int64?

    @Flag(help: "Every SMS counted as unconfirmed now (sent 6 hours to 7 days ago).")
    var all = false

    func validate() throws {
        try log.refuseListingOptions(in: "checked")
        if all, id != nil { throw ValidationError("Give either a message id or --all, not both.") }
        if !all, id == nil { throw ValidationError("Give a message id, or --all for every SMS counted as unconfirmed now.") }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        let count = try GatewayStatus.Unconfirmed.markChecked(id.map { .message($0) } ?? .all, by: .commandLine, store: store, now: Date())
        Output.line(count == 0 ? "No SMS is counted as unconfirmed; nothing was marked." : "Marked \(count) SMS as checked.")
    }
}
