import Foundation

/// One value of a column or a statement argument, as both backends store it.
///
/// The store keeps five kinds: SQLite's storage classes, which PostgreSQL's BIGINT, DOUBLE
/// PRECISION, TEXT and BYTEA columns hold alike. Booleans are integers 0 and 1 on both.
enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A Swift type the store binds as an argument and reads from a column.
///
/// The readings follow GRDB's, which the store used before the statements went through
/// ``StoreDatabase``: an integer column reads as a `Double`, a whole `REAL` as an integer, a
/// blob as a UTF-8 string and a string as bytes.
protocol StoreValueConvertible {
    /// The value bound for this argument.
    var storeValue: StoreValue { get }
    /// The value read from a column, or nil when the column holds something else (or NULL).
    static func fromStoreValue(_ value: StoreValue) -> Self?
}

extension String: StoreValueConvertible {
    var storeValue: StoreValue { .text(self) }
    static func fromStoreValue(_ value: StoreValue) -> String? {
        switch value {
        case .text(let text): text
        case .blob(let data): String(bytes: data, encoding: .utf8)
        default: nil
        }
    }
}

extension Data: StoreValueConvertible {
    var storeValue: StoreValue { .blob(self) }
    static func fromStoreValue(_ value: StoreValue) -> Data? {
        switch value {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }
}

extension Double: StoreValueConvertible {
    var storeValue: StoreValue { .real(self) }
    static func fromStoreValue(_ value: StoreValue) -> Double? {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }
}

extension Bool: StoreValueConvertible {
    var storeValue: StoreValue { .integer(self ? 1 : 0) }
    static func fromStoreValue(_ value: StoreValue) -> Bool? {
        switch value {
        case .integer(let integer): integer != 0
        case .real(let real): real != 0
        default: nil
        }
    }
}

/// The integer types the store binds and reads: stored as 64-bit signed integers.
protocol StoreInteger: StoreValueConvertible, FixedWidthInteger {}

extension StoreInteger {
    var storeValue: StoreValue { .integer(Int64(self)) }
    static func fromStoreValue(_ value: StoreValue) -> Self? {
        switch value {
        case .integer(let integer): Self(exactly: integer)
        case .real(let real): Int64(exactly: real).flatMap { Self(exactly: $0) }
        default: nil
        }
    }
}

extension Int: StoreInteger {}
extension Int64: StoreInteger {}
extension Int32: StoreInteger {}
extension UInt32: StoreInteger {}

extension Optional: StoreValueConvertible where Wrapped: StoreValueConvertible {
    var storeValue: StoreValue { self?.storeValue ?? .null }
    static func fromStoreValue(_ value: StoreValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromStoreValue(value).map { .some($0) }
    }
}
