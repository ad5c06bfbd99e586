import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("The store's statements through one seam, in one text for both backends")
struct StatementTests {
    @Test(
        "PostgreSQL's text numbers ? and ?N as $N, by SQLite's rule, and leaves quotes and comments alone",
        arguments: [
            ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"),
            (
                "WHERE phone_number = ?1 OR id = (SELECT x FROM y WHERE n = ?1)",
                "WHERE phone_number = $1 OR id = (SELECT x FROM y WHERE n = $1)"
            ),
            ("SET cursor = ?1 WHERE url = ?2 AND cursor < ?1", "SET cursor = $1 WHERE url = $2 AND cursor < $1"),
            ("VALUES (?2, ?, ?)", "VALUES ($2, $3, $4)"),
            ("SELECT '?', \"a?\" -- why?\nFROM t WHERE x = ?", "SELECT '?', \"a?\" -- why?\nFROM t WHERE x = $1"),
            ("SELECT 'it''s ?' WHERE a = ?", "SELECT 'it''s ?' WHERE a = $1"),
        ])
    func placeholders(sqlite: String, postgresql: String) {
        #expect(StoreDialect.postgresql.text(of: sqlite) == postgresql)
        #expect(StoreDialect.postgresql.text(of: sqlite) == postgresql)  // the cached translation
        #expect(StoreDialect.sqlite.text(of: sqlite) == sqlite)
    }

    @Test("Each kind of value binds and reads back, NULL as nil, and an insert returns its new id")
    func valuesRoundTrip() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let (first, second, row) = try store.write { tx in
            try tx.db.execute(sql: "CREATE TABLE kinds (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, n TEXT)")
            let insert = "INSERT INTO kinds (i, r, t, b, n) VALUES (?, ?, ?, ?, ?) RETURNING id"
            let first = try tx.db.insert(sql: insert, arguments: [Int64.max, 1.5, "tëxt", Data([0, 255]), nil as String?])
            let second = try tx.db.insert(sql: insert, arguments: [UInt32.max, 2.0, "", Data(), "x"])
            let row = try tx.db.row(sql: "SELECT * FROM kinds WHERE id = ?", arguments: [first])
            return (first, second, row)
        }
        #expect(second == first + 1)
        let values = try #require(row)
        #expect(values["i"] as Int64 == Int64.max)
        #expect(values["r"] as Double == 1.5)
        #expect(values["T"] as String == "tëxt")
        #expect(values["b"] as Data == Data([0, 255]))
        #expect(values["n"] as String? == nil)
        #expect(values[1] as Int64 == Int64.max)
        #expect(
            try store.read { try $0.db.value(Double.self, sql: "SELECT i FROM kinds WHERE id = ?", arguments: [second]) }
                == Double(UInt32.max))
        #expect(try store.read { try $0.db.value(Int.self, sql: "SELECT r FROM kinds WHERE id = ?", arguments: [second]) } == 2)
        #expect(try store.read { try $0.db.value(String.self, sql: "SELECT n FROM kinds WHERE id = ?", arguments: [first]) } == nil)
        #expect(try store.read { try $0.db.values(String.self, sql: "SELECT n FROM kinds ORDER BY id") } == ["x"])
    }

    @Test("The changes count is the last statement's, and a conflict that does nothing changes nothing")
    func changesCount() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try store.write { try $0.recordReceivedFingerprint("sha256:00", at: now) })
        #expect(try !store.write { try $0.recordReceivedFingerprint("sha256:00", at: now) })
        #expect(try store.write { tx in try tx.pruneReceivedFingerprints(olderThan: now + 1) } == 1)
    }

    @Test("A column another process's migration added is read by a connection that prepared the table's statement before")
    func columnsAfterMigration() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let select = "SELECT * FROM account"
        #expect(try store.read { try $0.db.row(sql: select) }?.hasColumn("added") == false)
        try store.gateway.pool.write { db in try db.execute(sql: "ALTER TABLE account ADD COLUMN added INTEGER") }
        #expect(try store.read { try $0.db.row(sql: select) }?.hasColumn("added") == true)
    }
}
