import ArgumentParser
import Foundation
import Gateway
import Operations
import TerminalIO

/// `smsgw backup FILE`: a consistent copy of the database, mode 0600, safe while the daemon runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the database to FILE (mode 0600), even while the daemon runs.",
        discussion: """
            SQLite's online backup: one consistent snapshot in one file, named FILE only once \
            complete; an existing FILE is never overwritten. No passphrase is needed. Restoring: \
            `smsgw restore FILE`, docs/OPERATIONS.md.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: ArgumentHelp("Where to write the copy; it must not exist.", valueName: "file"))
    var file: String

    func run() throws {
        let destination = URL(fileURLWithPath: file)
        let backup =
            try StoreSettings.load(configurationFile: ConfigurationOption.environmentFile).backend == .sqlite
            ? try DatabaseBackup.write(dataDirectory: global.dataDirectory, to: destination, logger: global.makeLogger())
            // Refused with the server's tools named: a PostgreSQL store is backed up by the server.
            : try DatabaseBackup.write(try StoreAccess.open(global), to: destination)
        Output.line("Backed up \(backup.source.path) to \(backup.destination.path).")
        if let reason = backup.readOnly {
            Output.line(
                "The store was read-only (\(reason.words)); the backup is complete, and `smsgw restore \(Shell.quote(backup.destination.path))` on a writable disk makes a store that can be written."
            )
        }
    }
}
