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
            SQLite's online backup: one consistent snapshot in one file, named FILE only once \
            complete; an existing FILE is never overwritten. No passphrase is needed. Restoring: \
            docs/OPERATIONS.md.
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
