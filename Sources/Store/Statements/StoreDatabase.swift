import Foundation

/// The statements of one transaction, on whichever database the store runs.
///
/// Every statement of the store goes through here, written once in the SQL both backends
/// understand (`?` or `?1` placeholders, `INSERT … ON CONFLICT`, `… RETURNING id`); where the
/// dialects differ, ``dialect`` says how (see ``StoreDialect``). The ``StoreConnection`` below
/// runs the text: GRDB's connection on SQLite.
///
/// Valid only inside the transaction it was made for, on that transaction's thread.
final class StoreDatabase {
    /// How this backend's SQL differs where one text cannot serve both.
    let dialect: StoreDialect
    private let connection: any StoreConnection
    /// The rows the last ``execute(sql:arguments:)`` inserted, updated or deleted.
    private(set) var changesCount = 0
    /// Whether this transaction queued something for the outbox: its commit notice says so
    /// (``StoreNotices``).
    var queuedOutbox = false

    init(_ connection: any StoreConnection) {
        self.connection = connection
        self.dialect = connection.dialect
    }

    /// Runs a statement that returns no rows.
    func execute(sql: String, arguments: StoreArguments = []) throws {
        changesCount = try connection.execute(dialect.text(of: sql), arguments.values)
    }

    /// Every row the statement returns.
    func rows(sql: String, arguments: StoreArguments = []) throws -> [StoreRow] {
        try connection.rows(dialect.text(of: sql), arguments.values, firstOnly: false)
    }

    /// The first row the statement returns, or nil when it returns none.
    func row(sql: String, arguments: StoreArguments = []) throws -> StoreRow? {
        try connection.rows(dialect.text(of: sql), arguments.values, firstOnly: true).first
    }

    /// The first column of the first row, or nil when there is no row or the value is NULL.
    func value<Value: StoreValueConvertible>(
        _ type: Value.Type, sql: String, arguments: StoreArguments = []
    ) throws -> Value? {
        try row(sql: sql, arguments: arguments).flatMap { row in row[0] as Value? }
    }

    /// The first column of every row, skipping NULLs.
    func values<Value: StoreValueConvertible>(
        _ type: Value.Type, sql: String, arguments: StoreArguments = []
    ) throws -> [Value] {
        try rows(sql: sql, arguments: arguments).compactMap { row in row[0] as Value? }
    }

    /// Runs an `INSERT … RETURNING id` and returns the new row's id.
    func insert(sql: String, arguments: StoreArguments = []) throws -> Int64 {
        let rows = try connection.rows(dialect.text(of: sql), arguments.values, firstOnly: false)
        changesCount = rows.count
        guard let id = rows.first.flatMap({ row in row[0] as Int64? }) else {
            throw StoreError.database("An insert returned no id.", cause: .other)
        }
        return id
    }
}

// A database wraps one connection inside one transaction, which stays on its thread.
@available(*, unavailable)
extension StoreDatabase: Sendable {}

/// One backend's connection inside a transaction: runs a statement text in its own dialect.
protocol StoreConnection: AnyObject {
    /// The dialect of the texts this connection runs.
    var dialect: StoreDialect { get }
    /// Runs a statement and returns how many rows it inserted, updated or deleted.
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int
    /// Runs a statement and returns its rows (only the first when `firstOnly`).
    func rows(_ sql: String, _ arguments: [StoreValue], firstOnly: Bool) throws -> [StoreRow]
}
