import GRDB

extension StoreSchema {
    /// The indexes behind the reads that grew with a year of traffic (docs/STORAGE.md,
    /// `v14-read-indexes`). Registered after every earlier one.
    static func registerReadIndexes(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14-read-indexes") { db in
            try db.execute(sql: PostgresSchema.readIndexes[0].statements.joined(separator: ";\n"))
        }
    }
}
