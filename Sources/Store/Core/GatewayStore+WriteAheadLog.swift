import Foundation
import GRDB

extension GatewayStore {
    /// How long one truncating checkpoint waits for another process's readers.
    static let checkpointBusyTimeout: TimeInterval = 0.5
    /// How long ``truncateWriteAheadLog(within:)`` keeps trying.
    static let checkpointBudget: TimeInterval = 10

    /// Copies every page of the `-wal` file into the database and truncates the `-wal` to zero
    /// bytes, so the old page images it holds (a removed contact, a wiped account, secrets under
    /// a retired key) leave the disk; `secure_delete` has already zeroed them in the new pages.
    ///
    /// Another process's open read transaction pins the `-wal` (a running daemon reads for a
    /// few milliseconds at a time): each attempt waits up to half a second for it, and attempts
    /// repeat until `budget` runs out.
    ///
    /// - Returns: true once the `-wal` is empty, false when readers kept it busy throughout.
    /// On PostgreSQL there is no `-wal` of the store's: true at once (the server's WAL and its
    /// dead row versions are the server's to recycle; docs/OPERATIONS.md).
    func truncateWriteAheadLog(within budget: TimeInterval = checkpointBudget) throws -> Bool {
        guard case .sqlite(let pool) = backend else { return true }
        let deadline = Date() + budget
        let normal = Int(Self.busyTimeout * 1000)
        let short = Int(Self.checkpointBusyTimeout * 1000)
        return try StoreError.wrapping {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA busy_timeout = \(short)")
                defer { try? db.execute(sql: "PRAGMA busy_timeout = \(normal)") }
                repeat {
                    do {
                        if try db.checkpoint(.truncate).walFrameCount == 0 { return true }
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                        // Readers still on the -wal; try again.
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                } while Date() < deadline
                return false
            }
        }
    }

    /// One truncating checkpoint that does not wait: true when the `-wal` is now empty, false
    /// when another process's readers kept it (or the checkpoint failed).
    func truncateWriteAheadLogOnce() -> Bool {
        guard case .sqlite(let pool) = backend else { return true }
        return (try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate).walFrameCount == 0 }) ?? false
    }

    /// Moves everything from the `-wal` file into the database file (not on a read-only store),
    /// closes the connections and releases the ``StoreLock`` (on PostgreSQL, closes the idle
    /// connections).
    func closeDatabase() throws {
        guard case .sqlite(let pool) = backend else {
            if case .postgresql(let pool, _) = backend { pool.close() }
            return
        }
        try StoreError.wrapping {
            // A read-only store has nothing of its own in a -wal, and cannot write the file.
            if readOnly == nil {
                _ = try pool.writeWithoutTransaction { db in
                    try db.checkpoint(.truncate)
                }
            }
            try pool.close()
        }
        storeLock?.release()
    }

    /// ``truncateWriteAheadLog(within:)``, throwing when the `-wal` could not be emptied.
    ///
    /// - Parameter done: What already happened, for the error's sentence ("the contact is removed").
    func requireTruncatedWriteAheadLog(after done: String) throws {
        guard try !truncateWriteAheadLog() else { return }
        throw StoreError.database(
            "\(done), but another smsgw process kept reading the write-ahead log, so old copies of the deleted rows remain in \(Self.databaseFileName)-wal until it stops or the next truncating checkpoint",
            cause: .busy
        )
    }
}
