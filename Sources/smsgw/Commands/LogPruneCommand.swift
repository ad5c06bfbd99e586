import ArgumentParser
import Foundation
import Operations

/// `smsgw log prune`: deletes logged messages, texts included, older than a number of days.
struct LogPruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete logged messages (and their texts) older than a number of days.",
        discussion: """
            The message log keeps every text, encrypted under the data key, until it is pruned: \\
            the protocol's forward secrecy covers the key state, not the log (docs/PROTOCOL.md \\
            §7.4). This deletes the messages logged more than --older-than days ago, except those \\
            still waiting in the outbox; freed pages are zeroed (secure_delete) and the write-ahead \\
            log is folded in and emptied, so no copy of a deleted text is left in the database \\
            files. Prints how many messages were deleted. Run it from cron or a systemd timer to \\
            keep the log short.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Delete messages logged more than this many days ago (0 deletes every message not waiting to be sent).")
    var olderThan: RetentionAge

    func run() throws {
        let outcome = try LogRetention.prune(try StoreAccess.unlock(global), olderThanDays: olderThan.days, now: Date())
        Output.line("\(outcome.deleted)")
        Output.line("Deleted \(outcome.deleted) messages logged before \(Output.timestamp(outcome.cutoff)).")
        if !outcome.writeAheadLogEmptied {
            Output.error(
                "smsgw: warning: the write-ahead log could not be emptied while another process (the daemon) reads the database; it is emptied when the daemon stops, or run this again.")
        }
    }
}
