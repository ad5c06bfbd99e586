import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The PostgreSQL backend of ``StoreDatabase``: runs the store's statements on one postgres-nio
/// connection, inside the transaction ``PostgresServer`` opened on it.
///
/// The store's transactions are synchronous closures; each statement waits for its answer on the
/// calling thread, never on the connection's event loop (`wait()` refuses that). Values travel
/// typed and in binary: `BIGINT`, `DOUBLE PRECISION`, `TEXT`, `BYTEA`; booleans the server
/// computes (`EXISTS`) read as 0 or 1, as on SQLite.
final class PostgresStatements: StoreConnection {
    private let connection: PostgresConnection
    private let answers: PostgresAnswerWait
    private let logger: Logger

    init(_ connection: PostgresConnection, answers: PostgresAnswerWait, logger: Logger) {
        self.connection = connection
        self.answers = answers
        self.logger = logger
    }

    var dialect: StoreDialect { .postgresql }

    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    func rows(_ sql: String, _ arguments: [StoreValue], firstOnly: Bool) throws -> [StoreRow] {
        let rows = try run(sql, arguments).rows
        guard let first = rows.first else { return [] }
        let columns = first.map(\.columnName)
        return try (firstOnly ? [first] : rows).map { row in
            StoreRow(columns: columns, values: try row.map(Self.value))
        }
    }

    private func run(_ sql: String, _ arguments: [StoreValue]) throws -> PostgresQueryResult {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        return try PostgresServer.wrapping {
            try answers.wait(for: connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger))
        }
    }

    /// A cell as the store reads it; a type the store never stores is a statement's mistake.
    private static func value(_ cell: PostgresCell) throws -> StoreValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .numeric: return .real(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue)
        case .bytea: return .blob(Data(try cell.decode(ByteBuffer.self).readableBytesView))
        default: return .text(try cell.decode(String.self))
        }
    }
}

// A connection inside one transaction stays with the thread that runs it.
@available(*, unavailable)
extension PostgresStatements: Sendable {}
