import ArgumentParser
import Foundation
import Gateway
import Operations
import Store
import TerminalIO

/// `smsgw store migrate --to TARGET`: the configured store copied into an empty database on
/// the other backend, verified, resumable.
struct StoreMigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy the store into an empty PostgreSQL database or SQLite data directory, and verify the copy.",
        discussion: """
            The source is the configured store ([store] of SMSGW_CONFIG's file, else SQLite in the data \
            directory); stop the daemon first. TARGET is postgresql://USER@HOST:PORT/DATABASE (the password \
            from [store] password_file or SMSGW_STORE_PASSWORD, never the command line) or sqlite:DIR (a \
            data directory). The source is unlocked first (passphrase, then the code when two-factor login \
            is on), before the target is touched; then the copy, then its check with the unlocked keys. The \
            target must be empty; an interrupted copy continues when run again. Step by step: docs/OPERATIONS.md.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Option(help: ArgumentHelp("The empty database to copy into: postgresql://… or sqlite:DIR.", valueName: "target"))
    var to: String

    @Flag(help: "Print the final report as one JSON object.")
    var json = false

    func run() throws {
        let settings = try StoreSettings.load(configurationFile: ConfigurationOption.environmentFile)
        // Unlocked before the target is opened, which would create its tables: a wrong
        // passphrase or code leaves the target as it was.
        let source = try StoreAccess.unlock(global, settings: settings)
        var shown: [String: Int] = [:]
        let report = try StoreMigration.copy(from: source, opening: { try openTarget(settings) }) { step in
            // A line per table when it completes, and one per 10,000 rows on the way.
            let previous = shown[step.table] ?? 0
            guard step.copied == step.total || step.copied / 10_000 > previous / 10_000 else { return }
            shown[step.table] = step.copied
            Output.diagnostic("\(step.table): \(step.copied) of \(Self.rows(step.total)) copied")
        }
        if json {
            Output.line(try Output.json(report))
            return
        }
        Output.line("Copied \(report.source) to \(report.target).")
        for table in report.tables {
            Output.line("\(table.table)\t\(Self.rows(table.sourceRows))\t\(table.targetRows) copied")
        }
        let check = report.decryption
        Output.line(
            "Decrypted in the copy: \(check.ratchetStates) ratchet states, \(check.logTexts) log texts, \(check.vaultItems) vault items."
        )
    }

    /// "1 row", "2 rows".
    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    /// The target store: on PostgreSQL with this node's data directory for its locks, the
    /// password found as `[store]` finds it; on SQLite in the data directory named.
    private func openTarget(_ settings: StoreSettings) throws -> GatewayStore {
        let logger = global.makeLogger()
        if to.hasPrefix("postgresql://") || to.hasPrefix("postgres://") {
            var target = settings
            target.backend = .postgresql
            target.url = to
            return try target.open(dataDirectory: global.dataDirectory, logger: logger)
        }
        let path = to.hasPrefix("sqlite:") ? String(to.dropFirst("sqlite:".count)) : to
        guard !path.isEmpty else {
            throw ValidationError("--to sqlite: needs a data directory, as in sqlite:/var/lib/smsgw-copy.")
        }
        return try GatewayStore.open(directory: URL(fileURLWithPath: path), logger: logger)
    }
}
