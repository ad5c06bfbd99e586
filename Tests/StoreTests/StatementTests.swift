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
        let ids = try store.write { tx in
            try tx.db.execute(sql: "CREATE TABLE kinds (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, n TEXT)")
            return try KindSamples.insert(into: "kinds", tx.db)
        }
        try store.read { reader in try KindSamples.check(reader.db, table: "kinds", ids: ids) }
    }

    @Test(
        "The changes count is the last statement's, and a conflict that does nothing changes nothing", arguments: StoreBackendKind.allCases)
    func changesCount(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try store.write { try $0.recordReceivedFingerprint("sha256:00", at: now) })
        #expect(try !store.write { try $0.recordReceivedFingerprint("sha256:00", at: now) })
        #expect(try store.write { tx in try tx.pruneReceivedFingerprints(olderThan: now + 1) } == 1)
    }

    @Test(
        "A statement that selects every column is told apart by its bytes, and only that one is prepared afresh",
        arguments: [
            ("SELECT * FROM outbox WHERE id = ?", true), ("WITH x AS (SELECT * FROM t) SELECT a FROM x", true),
            ("SSELECT * FROM t", true), ("SELECT COUNT(*) FROM t", false), ("SELECT a, b FROM t", false),
            ("SELECT  * FROM t", false), ("", false),
        ])
    func selectsEveryColumn(sql: String, every: Bool) {
        #expect(GRDBConnection.selectsEveryColumn(sql) == every)
    }

    @Test("The outbox statements that name their columns name every column an outbox row is read from")
    func outboxColumns() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let table = try store.read { reader in
            try reader.db.rows(sql: "SELECT name FROM pragma_table_info('outbox')").map { row -> String in row[0] }
        }
        let named = OutboxItem.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(Set(named) == Set(table).subtracting(["claim_sequence"]) && named.count == Set(named).count)
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
