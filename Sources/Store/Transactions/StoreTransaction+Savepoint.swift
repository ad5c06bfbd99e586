extension StoreTransaction {
    /// Runs `body` in a savepoint of this transaction: when it throws, what it changed is rolled
    /// back and the error rethrown, and the transaction goes on with everything before it.
    ///
    /// Several independent operations can so share one commit (one sync to disk) and still fail
    /// one by one: the HTTP API queues the sends that arrive together this way. The statements
    /// are the same on SQLite and PostgreSQL; a savepoint inside another takes the same name,
    /// which each releases or rolls back to the innermost.
    @discardableResult
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try db.execute(sql: "SAVEPOINT operation")
        let result: T
        do {
            result = try body()
        } catch {
            try db.execute(sql: "ROLLBACK TO SAVEPOINT operation")
            try db.execute(sql: "RELEASE SAVEPOINT operation")
            throw error
        }
        try db.execute(sql: "RELEASE SAVEPOINT operation")
        return result
    }
}
