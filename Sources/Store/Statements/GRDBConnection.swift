import Foundation
import GRDB

/// The SQLite backend of ``StoreDatabase``: runs the store's statements on a GRDB connection.
///
/// The only file that runs the store's statements through GRDB; opening the pool, the
/// migrations and the backups stay GRDB's (``GatewayStore``, ``StoreSchema``). Statements are
/// prepared once per connection and reused: the texts are the store's own, so the cache holds at
/// most one per statement in the code, and the ones each message runs are parsed once. A
/// `SELECT *` is prepared afresh each time: GRDB keeps a prepared statement's column names, and
/// a migration (another process's, too) may have added columns since.
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
        let arguments = Self.arguments(arguments)
        let rows =
            firstOnly
            ? try Row.fetchOne(statement, arguments: arguments).map { [$0] } ?? []
            : try Row.fetchAll(statement, arguments: arguments)
        // The names are read after the first step: SQLite prepares again there when the schema
        // changed since this connection last looked, and only then are the columns known.
        guard let first = rows.first else { return [] }
        let columns = Array(first.columnNames)
        return rows.map { row in
            StoreRow(columns: columns, values: row.databaseValues.map(Self.value))
        }
    }

    private func statement(_ sql: String) throws -> Statement {
        sql.contains("SELECT *") ? try db.makeStatement(sql: sql) : try db.cachedStatement(sql: sql)
    }

    private static func arguments(_ values: [StoreValue]) -> StatementArguments {
        StatementArguments(values.map(databaseValue))
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
