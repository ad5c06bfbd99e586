extension GatewayStore {
    /// What the PostgreSQL server says about how durable a commit is (``ServerDurability``), or
    /// nil on SQLite, whose commits are on disk when they return (WAL, synchronous FULL for
    /// the write that ends a transaction, as GRDB opens it).
    ///
    /// - Throws: ``StoreError/server(_:cause:)`` when the server cannot be asked.
    public func serverDurability() throws -> ServerDurability? {
        guard case .postgresql(let pool, _) = backend else { return nil }
        return try pool.readTransaction { db in
            let replicas = try db.rows(
                sql: """
                    SELECT COALESCE(application_name, '')::TEXT AS name, sync_state::TEXT AS state FROM pg_stat_replication
                    ORDER BY application_name
                    """
            ).map { row in ServerDurability.Replica(name: row["name"], syncState: row["state"]) }
            return ServerDurability(
                synchronousCommit: try db.value(String.self, sql: "SHOW synchronous_commit") ?? "on",
                synchronousStandbyNames: try db.value(String.self, sql: "SHOW synchronous_standby_names") ?? "",
                inRecovery: try db.value(Bool.self, sql: "SELECT pg_is_in_recovery()") ?? false, replicas: replicas)
        }
    }
}

extension GatewayStore {
    /// Closes the database connections (on SQLite after folding the `-wal` into the file), for
    /// a store that was opened without unlocking; it is unusable afterwards.
    public func close() throws {
        try closeDatabase()
    }
}
