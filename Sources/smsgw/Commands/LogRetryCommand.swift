import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw log retry`: sends a failed message again, as it was sealed.
struct LogRetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Send a failed message again (the same ciphertexts: no key is used again).",
        discussion: "Exits 65 when none of its SMS failed, 66 for an unknown id. See docs/CLI.md."
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    // The listing's options belong to `log`, which parses them wherever they stand.
    @ParentCommand var log: LogCommand

    @Argument(help: "The message id (the first field of `smsgw log`).")
    var id: Int64

    func validate() throws {
        try log.refuseListingOptions(in: "retry")
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        // Read before the retry, which queues the failed SMS again: what their failure says.
        let outlook = try RetryOutlook.of([id], store: store)[id]
        let count = try Messages.retry(id, by: .commandLine, store: store, now: Date())
        Output.line("Queued \(count == 1 ? "its SMS" : "its \(count) failed SMS") again.")
        if let sentence = outlook?.sentence { Output.warning(sentence) }
        Daemon.wake(in: global.dataDirectory)
        if !SendCommand.daemonRuns(global) {
            Output.warning("no gateway daemon is running on this data directory; the message stays queued until `smsgw serve` runs.")
        }
    }
}
