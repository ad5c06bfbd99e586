import Logging

extension PostgresSchema {
    /// Applies the pending migrations in one transaction, after every other node's.
    ///
    /// An advisory lock orders nodes that start at once; the transaction reads committed data
    /// after taking it, so a node that waited sees what the first one applied. DDL is
    /// transactional on PostgreSQL: a migration that fails leaves the database as it was. The
    /// record of a move (``GatewayStore/movedTable``) is made here too, empty, outside the
    /// versioned migrations as their own table is: a database an older smsgw opens keeps opening,
    /// and one whose record was dropped by hand gets it back, empty, at the next open.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when the database was migrated by a newer
    ///   smsgw, or when this one has a SQLite migration without its PostgreSQL statements.
    static func migrate(_ pool: PostgresPool, logger: Logger) throws {
        let known = migrations.map(\.name)
        guard known == StoreSchema.migrator.migrations else {
            let missing = StoreSchema.migrator.migrations.filter { !known.contains($0) }
            throw StoreError.configuration(
                "This smsgw lacks the PostgreSQL form of the migrations \(missing.joined(separator: ", ")); use the SQLite backend or an smsgw built with them."
            )
        }
        try pool.withServer { server in
            try server.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { db in
                try db.execute(sql: "SELECT pg_advisory_xact_lock(?)", arguments: [migrationLock])
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT PRIMARY KEY NOT NULL)")
                let applied = Set(try db.values(String.self, sql: "SELECT identifier FROM \(migrationsTable)"))
                guard applied.isSubset(of: known) else {
                    throw StoreError.configuration(
                        "The database was written by a newer smsgw; upgrade smsgw before using this database.")
                }
                for migration in migrations where !applied.contains(migration.name) {
                    logger.info("Applying database migration.", metadata: [StoreLog.migration: "\(migration.name)"])
                    for statement in migration.statements {
                        try db.execute(sql: statement)
                    }
                    try db.execute(sql: "INSERT INTO \(migrationsTable) (identifier) VALUES (?)", arguments: [migration.name])
                }
                // Empty until a copy records the move: its every look is then one query.
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(GatewayStore.movedTable) (record TEXT NOT NULL)")
            }
        }
    }

    /// The migrations applied to the database, in order.
    static func appliedMigrations(_ db: StoreDatabase) throws -> [String] {
        let applied = Set(try db.values(String.self, sql: "SELECT identifier FROM \(migrationsTable)"))
        return migrations.map(\.name).filter(applied.contains)
    }
}
