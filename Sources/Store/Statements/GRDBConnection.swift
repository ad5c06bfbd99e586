import Foundation
import GRDB

/// The SQLite backend of ``StoreDatabase``: runs the store's statements on a GRDB connection.
///
/// The only file that runs the store's statements through GRDB; opening the pool, the
/// migrations and the backups stay GRDB's (``GatewayStore``, ``StoreSchema``). Statements are
/// prepared once per connection and reused: the texts are the store's own, so the cache holds at
/// most one per statement in the code, and the ones each message runs are parsed once. A
/// `SELECT *` is prepared afresh each time: GRDB keeps a prepared statement's column names, and
/// a migration (another process's, too) may have added columns since; the statements a send
/// runs name their columns, so they stay prepared.
///
/// Rows are read straight from the stepping statement into ``StoreValue``s, with the
/// statement's one array of column names shared by all its rows: no intermediate GRDB rows.
final class GRDBConnection: StoreConnection {
    private let db: Database

    init(_ db: Database) {
        self.db = db
    }

    var dialect: StoreDialect { .sqlite }

    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try statement(sql).execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: [StoreValue], firstOnly: Bool) throws -> [StoreRow] {
        let statement = try statement(sql)
        // A cursor of the first column steps the statement; the other columns are read from it
        // directly (GRDB's row cursor builds a dictionary of column names on every call).
        let cursor = try DatabaseValue.fetchCursor(statement, arguments: Self.arguments(arguments))
        var rows: [StoreRow] = []
        var columns: [String] = []
        while let first = try cursor.next() {
            // The names are read after the first step: SQLite prepares again there when the
            // schema changed since this connection last looked, and only then are the columns known.
            if rows.isEmpty { columns = statement.columnNames }
            let sqliteStatement = statement.sqliteStatement
            var values: [StoreValue] = [Self.value(first)]
            values.reserveCapacity(columns.count)
            for index in 1..<max(CInt(columns.count), 1) {
                values.append(Self.value(DatabaseValue(sqliteStatement: sqliteStatement, index: index)))
            }
            rows.append(StoreRow(columns: columns, values: values))
            if firstOnly { break }
        }
        return rows
    }

    private func statement(_ sql: String) throws -> Statement {
        Self.selectsEveryColumn(sql) ? try db.makeStatement(sql: sql) : try db.cachedStatement(sql: sql)
    }

    /// Whether the text holds `SELECT *`, searched in its bytes: Foundation's `contains` on a
    /// `String` cost a send more than the statement it guarded.
    static func selectsEveryColumn(_ sql: String) -> Bool {
        let pattern = selectAll
        var matched = 0
        for byte in sql.utf8 {
            matched = byte == pattern[matched] ? matched + 1 : (byte == pattern[0] ? 1 : 0)
            if matched == pattern.count { return true }
        }
        return false
    }

    private static let selectAll = Array("SELECT *".utf8)

    /// GRDB's arguments, built through its initializer for optional values: the one for
    /// non-optional values maps with a key path, which is looked up at run time on every call.
    private static func arguments(_ values: [StoreValue]) -> StatementArguments {
        StatementArguments(values.map { value -> (any DatabaseValueConvertible)? in databaseValue(value) })
    }

    private static func databaseValue(_ value: StoreValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }

    private static func value(_ value: DatabaseValue) -> StoreValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .blob(data)
        }
    }
}

// A connection is GRDB's `Database`, which must stay on its dispatch queue.
@available(*, unavailable)
extension GRDBConnection: Sendable {}
