import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// `smsgw backup FILE`: a consistent copy of the database, mode 0600, safe while the daemon runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the database to FILE (mode 0600), even while the daemon runs.",
        discussion: """
            Uses SQLite's online backup: the copy is one consistent snapshot, complete in one file \
            (no -wal beside it), written under a hidden name and given FILE's name only once \
            complete. An existing FILE is never overwritten (exit 65); a FILE that cannot be \
            created exits 78. No passphrase is needed: every secret in the copy stays encrypted \
            under it. Run it as the user that owns the data directory (for the service: \
            `runuser -u smsgw -- smsgw backup --data-dir /var/lib/smsgw FILE`).

            To restore, stop the daemon, put the copy in place as DATA_DIR/smsgw.sqlite (owned by \
            the service user, mode 0600) with no -wal or -shm file beside it, start the daemon, \
            and run `smsgw resync NAME` for every contact before sending (docs/OPERATIONS.md).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Where to write the copy; it must not exist.", valueName: "file"))
    var file: String

    func run() throws {
        let backup = try DatabaseBackup.write(
            dataDirectory: global.dataDirectory, to: URL(fileURLWithPath: file), logger: global.makeLogger())
        Output.line("Backed up \(backup.source.path) to \(backup.destination.path).")
    }
}
