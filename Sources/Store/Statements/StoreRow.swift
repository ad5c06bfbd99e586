import Foundation

/// One row a statement returned, read by column name (or position) and Swift type.
///
/// `let name: String = row["name"]`; an optional type reads NULL as nil. A value of another
/// type than the one asked for is a programming error in the statement, not bad data: the store
/// wrote every column itself, and the schema's types (STRICT tables on SQLite) hold them.
struct StoreRow: Sendable {
    /// The column names, lowercase as the statement gave them.
    let columns: [String]
    let values: [StoreValue]

    /// The value of the column named `column` (compared without regard to case).
    subscript<Value: StoreValueConvertible>(_ column: String) -> Value {
        guard let index = index(of: column) else {
            preconditionFailure("The statement returned no column \(column).")
        }
        return self[index]
    }

    /// The value of the column at `index`, counting from 0.
    subscript<Value: StoreValueConvertible>(_ index: Int) -> Value {
        guard let value = Value.fromStoreValue(values[index]) else {
            preconditionFailure("The column \(columns[index]) does not hold a \(Value.self).")
        }
        return value
    }

    /// Whether the row has a column named `column`.
    func hasColumn(_ column: String) -> Bool { index(of: column) != nil }

    private func index(of column: String) -> Int? {
        columns.firstIndex(of: column) ?? columns.firstIndex { $0.caseInsensitiveCompare(column) == .orderedSame }
    }
}
