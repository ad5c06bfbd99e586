import Foundation
import GRDB

extension StoreError {
    /// Runs `body`, turning SQLite errors into ``StoreError/database(_:busy:)``.
    ///
    /// Other errors pass through untouched, so a caller that throws its own error inside
    /// ``UnlockedStore/write(_:_:)`` to roll back gets that same error back.
    /// GRDB errors never carry statement arguments (`publicStatementArguments` stays false),
    /// so the message holds a result code and SQLite's text, never a secret value.
    @discardableResult
    static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    /// The database's own words when the database (SQLite, ``database(_:busy:)``) or its server
    /// (PostgreSQL, ``server(_:busy:)``) failed, else nil: for a caller that waits out an outage
    /// of either.
    public var databaseFailure: String? {
        switch self {
        case .database(let message, _), .server(let message, _): message
        default: nil
        }
    }

    init(_ error: DatabaseError) {
        let busy = error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        let message = error.message ?? "SQLite result code \(error.resultCode.rawValue)"
        self = .database(message, busy: busy)
    }
}
