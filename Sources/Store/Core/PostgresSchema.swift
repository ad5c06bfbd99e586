/// The versioned schema on PostgreSQL: the same migrations as ``StoreSchema``, by the same names
/// and in the same order, written as PostgreSQL DDL.
///
/// Each SQLite migration has its entry here, beside it in name: a store opened on either backend
/// reports the same applied migrations, and a migration that forgets this side is refused when a
/// store opens (``PostgresSchema/migrate(_:logger:)``) and fails `StoreSchemaTests`. The
/// translation is mechanical where it can be: `INTEGER` is `BIGINT` (the store binds 64-bit
/// integers), `REAL` is `DOUBLE PRECISION`, `BLOB` is `BYTEA`, an `AUTOINCREMENT` key is an
/// identity column, `STRICT` and `WITHOUT ROWID` go (PostgreSQL's types are always strict).
/// Where SQLite's own features are used, the entry says what stands for them: the triggers are
/// PL/pgSQL functions writing the same rows and the same JSON, a table whose statements order by
/// SQLite's implicit `rowid` gets an identity column of that name, and `COLLATE NOCASE` is a
/// nondeterministic ICU collation.
///
/// Applied migrations are recorded in `store_migrations` (GRDB's `grdb_migrations` on SQLite).
enum PostgresSchema {
    /// One migration: its name (as ``StoreSchema``'s) and its statements, run in order.
    struct Migration: Sendable {
        let name: String
        let statements: [String]

        init(_ name: String, _ statements: [String]) {
            self.name = name
            self.statements = statements
        }
    }

    /// Every migration, in ``StoreSchema``'s order.
    static let migrations: [Migration] =
        version1 + version4 + version5 + version6 + version7 + nodes + version8 + idempotencyScope + outboxFailures + nodeInstances
        + keysRestored + unconfirmed + readIndexes + countIndexes

    /// The table that records which migrations ran.
    static let migrationsTable = "store_migrations"

    /// A number no other user of the database takes as an advisory lock: migrations of two
    /// nodes starting at once run one after the other.
    static let migrationLock: Int64 = 0x736d_7367_7700_0001
}
