import GRDB

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

extension StoreError {
    /// `error`, thrown inside a transaction, as the store's error when it is the database itself
    /// failing (an SQLite error: a full disk, a read-only file, I/O; the PostgreSQL server's
    /// error or a lost connection), else nil: an operation's own refusal. A caller that gives
    /// each part of a transaction its own outcome (``StoreTransaction/savepoint(_:)``) fails the
    /// whole transaction on such an error: it is not about that part.
    public static func databaseFailure(in error: any Error) -> StoreError? {
        switch error {
        case let error as DatabaseError: StoreError(error)
        case let error as StoreError: error.databaseFailure == nil ? nil : error
        default: nil
        }
    }
}
