import ArgumentParser

/// `smsgw store`: the database itself, across backends.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work on the database itself: copy the store to PostgreSQL or back to SQLite.",
        subcommands: [StoreMigrateCommand.self]
    )
}
