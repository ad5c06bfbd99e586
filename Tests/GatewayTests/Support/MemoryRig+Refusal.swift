@testable import Store

extension MemoryRig {
    /// Makes the rig's SQLite store refuse a kind of write as a full disk does, with the same
    /// message: a trigger on `table` aborts the statement (`when`: the trigger's condition, on
    /// `NEW`). One refusal at a time; ``acceptWrites()`` lifts it.
    /// - Parameter event: `INSERT`, `UPDATE` or `DELETE`.
    func refuseWrites(_ event: String, on table: String, when condition: String = "1") throws {
        try store.write { tx in
            try tx.db.execute(
                sql: """
                    CREATE TRIGGER refused BEFORE \(event) ON \(table) WHEN \(condition)
                    BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                    """)
        }
    }

    /// Lifts the refusal ``refuseWrites(_:on:when:)`` put in place, as if space came back.
    func acceptWrites() throws {
        try store.write { tx in try tx.db.execute(sql: "DROP TRIGGER refused") }
    }
}
