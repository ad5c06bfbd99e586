import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw log prune`: deletes logged messages, texts included, older than a number of days.
struct LogPruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete logged messages (and their texts) older than a number of days.",
        discussion: """
            The log keeps every text, encrypted, until pruned; freed pages are zeroed and the \
            write-ahead log emptied, so no copy is left. Deletes in short transactions, so a running daemon \
            keeps logging. Ctrl-C (SIGINT) or SIGTERM stops it after the batch in progress, empties the \
            write-ahead log and exits 130 (143 for SIGTERM); a second one ends it at once. A prune stopped \
            either way is finished by running it again. Prints how many were deleted; run it from cron or a \
            systemd timer to keep the log short. See docs/CLI.md.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    // The listing's options belong to `log`, which parses them wherever they stand.
    @ParentCommand var log: LogCommand

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Delete messages logged more than this many days ago (0 deletes every message not waiting to be sent).",
            valueName: "days"),
        transform: RetentionAge.parsing)
    var olderThan: RetentionAge

    func validate() throws {
        try log.refuseListingOptions(in: "prune")
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        // On a terminal, a line per 10,000 messages deleted: a long prune shows it is moving.
        let showProgress = Output.standardErrorIsTerminal
        var shown = 0
        // Caught only now: the passphrase prompt has its own handlers, which put echo back.
        StopSignal.install()
        let outcome = try LogRetention.prune(
            store, olderThanDays: olderThan.days, now: Date(),
            progress: { step in
                guard showProgress, step.deleted / 10_000 > shown / 10_000 else { return }
                shown = step.deleted
                Output.diagnostic("\(step.deleted) of \(step.total) messages deleted")
            },
            stopRequested: { StopSignal.requested != nil })
        Output.line("\(outcome.deleted)")
        Output.line("Deleted \(outcome.deleted) messages logged before \(Output.timestamp(outcome.cutoff)).")
        if outcome.eventsDeleted > 0 || outcome.deliveriesDeleted > 0 {
            Output.line(
                "Deleted \(outcome.eventsDeleted) journal events and \(outcome.deliveriesDeleted) finished webhook deliveries of that age.")
        }
        if !outcome.writeAheadLogEmptied {
            Output.warning(
                "the write-ahead log could not be emptied while another process (the daemon) reads the database; it is emptied when the daemon stops, or run this again."
            )
        }
        if outcome.stopped, let signal = StopSignal.requested {
            Output.diagnostic(
                "Stopped by \(StopSignal.name(signal)) after \(outcome.deleted) messages; older ones are left and the log is consistent. Run `smsgw log prune --older-than \(olderThan.days)` again to delete the rest."
            )
            Output.flush()
            throw ExitCode(128 + signal)
        }
    }
}
