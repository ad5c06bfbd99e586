@testable import Store

extension MemoryRig {
    /// Makes the rig's SQLite store refuse a kind of write as a full disk does: SQLite itself
    /// fails the statement with `SQLITE_FULL` ("database or disk is full"). A trigger on `table`
    /// (`when`: its condition, on `NEW`) inserts into a table whose AUTOINCREMENT key is used up,
    /// which SQLite refuses as full. One refusal at a time; ``acceptWrites()`` lifts it.
    /// - Parameter event: `INSERT`, `UPDATE` or `DELETE`.
    func refuseWrites(_ event: String, on table: String, when condition: String = "1") throws {
        try store.write { tx in
            try tx.db.execute(sql: "CREATE TABLE refusal_full (id INTEGER PRIMARY KEY AUTOINCREMENT)")
            try tx.db.execute(sql: "INSERT INTO refusal_full (id) VALUES (9223372036854775807)")
            try tx.db.execute(
                sql: """
                    CREATE TRIGGER refused BEFORE \(event) ON \(table) WHEN \(condition)
                    BEGIN INSERT INTO refusal_full (id) VALUES (NULL); END
                    """)
        }
    }

    /// Makes every `event` on `table` break one of the schema's rules, as a statement with a
    /// fault would: SQLite fails it with `SQLITE_CONSTRAINT`, with a message that only looks
    /// like a full disk's. ``acceptWrites()`` lifts it.
    func breakRule(_ event: String, on table: String) throws {
        try store.write { tx in
            try tx.db.execute(
                sql: """
                    CREATE TRIGGER refused BEFORE \(event) ON \(table)
                    BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                    """)
        }
    }

    /// Lifts the refusal ``refuseWrites(_:on:when:)`` or ``breakRule(_:on:)`` put in place, as
    /// if space came back.
    func acceptWrites() throws {
        try store.write { tx in
            try tx.db.execute(sql: "DROP TRIGGER refused")
            try tx.db.execute(sql: "DROP TABLE IF EXISTS refusal_full")
        }
    }
}

extension MemoryRig {
    /// Fills the rig's SQLite store as a full disk does: the writing connection's page limit
    /// (`PRAGMA max_page_count`) becomes the pages the file has now, so SQLite fails any write
    /// that needs another page with `SQLITE_FULL`. ``unfillStore()`` lifts it.
    func fillStore() throws {
        try store.write { tx in _ = try tx.db.rows(sql: "PRAGMA max_page_count = 1") }
    }

    /// Lifts ``fillStore()``'s page limit, as if space came back.
    func unfillStore() throws {
        try store.write { tx in _ = try tx.db.rows(sql: "PRAGMA max_page_count = 1073741823") }
    }

    /// Writes `bytes` zero bytes into a table of their own, through the store's write
    /// transaction (a write as any of the daemon's, observed as they are).
    func writeFiller(bytes: Int) throws {
        try store.write { tx in
            try tx.db.execute(sql: "CREATE TABLE IF NOT EXISTS filler (b BLOB)")
            try tx.db.execute(sql: "INSERT INTO filler (b) VALUES (zeroblob(?))", arguments: [bytes])
        }
    }
}
