import Foundation
import Testing

@testable import Store

/// The rows both backends' statement tests write and read back, in the same statement texts:
/// one of each kind of value and a NULL, in a table `(id, i, r, t, b, n)` the test created.
enum KindSamples {
    /// Inserts the two rows and returns their ids.
    static func insert(into table: String, _ db: StoreDatabase) throws -> (first: Int64, second: Int64) {
        let insert = "INSERT INTO \(table) (i, r, t, b, n) VALUES (?, ?, ?, ?, ?) RETURNING id"
        let first = try db.insert(sql: insert, arguments: [Int64.max, 1.5, "tëxt", Data([0, 255]), nil as String?])
        let second = try db.insert(sql: insert, arguments: [UInt32.max, 2.0, "", Data(), "x"])
        return (first, second)
    }

    /// Checks that every value reads back as written, by name, by position and converted.
    static func check(_ db: StoreDatabase, table: String, ids: (first: Int64, second: Int64)) throws {
        #expect(ids.second == ids.first + 1)
        let values = try #require(try db.row(sql: "SELECT * FROM \(table) WHERE id = ?", arguments: [ids.first]))
        #expect(values["i"] as Int64 == Int64.max)
        #expect(values["r"] as Double == 1.5)
        #expect(values["T"] as String == "tëxt")
        #expect(values["b"] as Data == Data([0, 255]))
        #expect(values["n"] as String? == nil)
        #expect(values[1] as Int64 == Int64.max)
        let select = "SELECT %@ FROM \(table) WHERE id = ?"
        #expect(try db.value(Double.self, sql: String(format: select, "i"), arguments: [ids.second]) == Double(UInt32.max))
        #expect(try db.value(Int.self, sql: String(format: select, "r"), arguments: [ids.second]) == 2)
        #expect(try db.value(String.self, sql: String(format: select, "n"), arguments: [ids.first]) == nil)
        #expect(try db.values(String.self, sql: "SELECT n FROM \(table) ORDER BY id") == ["x"])
        let exists = "SELECT EXISTS (SELECT 1 FROM \(table) WHERE t = ?1 OR n = ?1)"
        #expect(try db.value(Bool.self, sql: exists, arguments: ["x"]) == true)
        #expect(try db.value(Int.self, sql: "SELECT COUNT(*) FROM \(table)") == 2)
    }
}
