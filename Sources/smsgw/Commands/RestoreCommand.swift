import ArgumentParser
import Foundation
import Gateway
import Operations
import Store
import TerminalIO

/// `smsgw restore FILE`: a backup written by `smsgw backup` put in place of the store.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup written by `smsgw backup` in place of the store, keeping the replaced one beside it.",
        discussion: """
            Stop the daemon and every other smsgw command on the store first (exit 75 otherwise); none \
            can open the store while the restore runs. FILE is checked (SQLite, \
            integrity, an smsgw store no newer than this one, the store's passphrase) and never \
            changed. The replaced store is kept as smsgw.sqlite.replaced-YYYYmmdd-HHMMSS (UTC). Ids \
            continue after the replaced store's; the backup's unsent SMS are failed, not sent; every \
            contact needs `smsgw resync NAME` before anything is sent. SQLite only. See docs/OPERATIONS.md.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: ArgumentHelp("The backup to restore (it is only read).", valueName: "file"))
    var file: String

    @Flag(
        help:
            "Replace a store that cannot be read (damaged): it is kept aside byte for byte, and ids may repeat the lost store's if its counters cannot be read."
    )
    var replaceUnreadable = false

    @Flag(help: "Print what was restored as one JSON object.")
    var json = false

    func run() throws {
        guard try StoreSettings.load(configurationFile: ConfigurationOption.environmentFile).backend == .sqlite else {
            throw MaintenanceError.serverStore
        }
        var origin = ""
        let outcome: RestoreOutcome
        do {
            outcome = try StoreRestore.restore(
                URL(fileURLWithPath: file), dataDirectory: global.dataDirectory, logger: global.makeLogger(), now: Date(),
                replacingUnreadable: replaceUnreadable
            ) { login in try StoreAccess.credentials(for: login) { origin = $0 } }
        } catch StoreError.authenticationFailed {
            // The backup's account on a throwaway copy: no attempt counts, none locks this store.
            throw CLIError(
                "The passphrase from \(origin) does not open the backup \(file); give the passphrase the store had when the backup was written (this store's may have changed since). Nothing was changed.",
                status: .authentication)
        }
        if json {
            Output.line(try Output.json(outcome))
            return
        }
        let written = outcome.backupWrittenAt.map { " (written \(InternetTime.string($0)))" } ?? ""
        Output.line(
            "Restored \(outcome.backup)\(written) into \(outcome.database): contacts \(outcome.contacts), messages \(outcome.messages).")
        if outcome.replacedUnreadable {
            Output.line("The replaced store could not be read; it is kept as it was (with its -wal and -shm) at \(outcome.replaced).")
        } else {
            Output.line("The replaced store is kept, complete, at \(outcome.replaced).")
        }
        if !outcome.removedLeftovers.isEmpty {
            Output.line("Removed what an interrupted restore had left: \(outcome.removedLeftovers.joined(separator: ", ")).")
        }
        if outcome.idsContinued {
            Output.line("Message, event and outbox ids continue after the replaced store's; none is handed out twice.")
        } else {
            Output.line(
                "Warning: the replaced store's id counters could not be read, so message, event and outbox ids may repeat those it handed out; a program that keeps ids may mix them up."
            )
        }
        if outcome.heldOutbox > 0 {
            Output.line(
                "Held SMS: \(outcome.heldOutbox) queued or being sent in the backup are failed, not sent (`smsgw log` shows why); send those texts again after the resync."
            )
        }
        for name in outcome.pairedSinceBackup {
            Output.line(
                TerminalText.escaped(
                    "\(name) was paired after the backup was taken and holds keys this store no longer has: run `smsgw resync \(Shell.quote(name)) --manual` here and ask \(name)'s operator to run it too, then each enters the other's new code with `smsgw contact pair`."
                ))
        }
        guard !outcome.resync.isEmpty else { return }
        Output.line("Every contact's keys went back to the backup's time. Before sending anything, resync each contact:")
        for name in outcome.resync { Output.line("  smsgw resync \(Shell.quote(name))") }
        if !outcome.epochsCarried {
            Output.line(
                "The replaced store \(outcome.replacedUnreadable ? "could not be read" : "did not open with this passphrase"), so the epochs it reached are not known here: each contact's next resync starts \(StoreRestore.unknownEpochMargin) epochs above the backup's, above any it can have reached (`smsgw log` shows each)."
            )
        }
    }
}
