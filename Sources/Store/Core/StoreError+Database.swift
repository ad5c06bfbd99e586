import Foundation
import GRDB

extension StoreError {
    /// Runs `body`, turning SQLite errors into ``StoreError/database(_:cause:)``.
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

    /// The database's own words when the database (SQLite, ``database(_:cause:)``) or its server
    /// (PostgreSQL, ``server(_:cause:)``) failed, else nil: for a caller that waits out an outage
    /// of either.
    public var databaseFailure: String? {
        switch self {
        case .database(let message, _), .server(let message, _): message
        default: nil
        }
    }

    /// Why the database (``database(_:cause:)``) or its server (``server(_:cause:)``) failed,
    /// else nil.
    public var cause: Cause? {
        switch self {
        case .database(_, let cause), .server(_, let cause): cause
        default: nil
        }
    }

    /// Whether the storage itself refused (``Cause/isStorage``: full, read-only, failing,
    /// damaged, unreachable; or a store opened read-only, ``readOnly(directory:reason:)``): not a
    /// busy store, nor a statement that broke a rule.
    public var isStorageFailure: Bool {
        if case .readOnly = self { return true }
        return cause?.isStorage ?? false
    }

    init(_ error: DatabaseError) {
        // A failed backup step carries its destination connection's last message, SQLite's words
        // for no error at all: the result code's own words instead.
        let message = error.message.flatMap { $0 == "not an error" ? nil : $0 } ?? Self.words(error.extendedResultCode)
        self = .database(message, cause: Cause(sqlite: error.resultCode))
    }

    /// SQLite's words for `code` (its description is `13 (database or disk is full)`).
    private static func words(_ code: ResultCode) -> String {
        let text = code.description
        let prefix = "\(code.rawValue) ("
        guard text.hasPrefix(prefix), text.hasSuffix(")") else { return "SQLite result code \(text)" }
        return String(text.dropFirst(prefix.count).dropLast())
    }
}

extension StoreError.Cause {
    /// The cause of a SQLite error with this (primary) result code.
    init(sqlite code: ResultCode) {
        switch code.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_FULL: self = .full
        case .SQLITE_READONLY: self = .readOnly
        case .SQLITE_IOERR: self = .ioError
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .corrupt
        case .SQLITE_CANTOPEN, .SQLITE_PERM: self = .cannotOpen
        case .SQLITE_CONSTRAINT: self = .constraint
        default: self = .other
        }
    }
}
