import GRDB

extension StoreTransaction {
    /// Runs `body` in a savepoint of this transaction: when it throws, what it changed is rolled
    /// back and the error rethrown, and the transaction goes on with everything before it.
    ///
    /// Several independent operations can so share one commit (one sync to disk) and still fail
    /// one by one: the HTTP API queues the sends that arrive together this way.
    @discardableResult
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try StoreError.wrapping {
            try db.inSavepoint {
                result = try body()
                return .commit
            }
        }
        return result!
    }
}
