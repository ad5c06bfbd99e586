import GRDB

extension StoreSchema {
    /// The indexes behind the counts of `/metrics` and the failures `status` lists
    /// (docs/STORAGE.md, `v15-count-indexes`). Registered after every earlier one.
    static func registerCountIndexes(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-count-indexes") { db in
            try db.execute(sql: PostgresSchema.countIndexes[0].statements.joined(separator: ";\n"))
        }
    }
}
