import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// A writer of another store gets in while a prune runs on SQLite, as the pause between the
/// prune's transactions (``UnlockedStore/prunePause``) is for, so the daemon logs its SMS while a
/// prune runs rather than after it. On this store the read that finds each batch leaves the lock
/// free long enough that writes got in without the pause too (measured when this test was added).
@Suite("Store: the pause between a prune's batches", .dedicatedExecutor)
struct LogPrunePauseTests {
    static let batch = 5_000
    /// What the test saw: the prune's batches so far, whether it has returned, and for each of
    /// the daemon's writes whether the prune had returned when it committed.
    struct Seen {
        var batches = 0
        var pruneEnded = false
        var writesAfterThePrune: [Bool] = []
    }

    @Test("Writes that start while a prune runs on SQLite commit before it ends")
    func writesCommitBeforeThePruneEnds() async throws {
        let location = try location(.sqlite)
        let (_, pruner) = try location.unlockedStore()
        // A second GatewayStore has its own connections, as the daemon's process would.
        let daemon = try location.open().unlock(passphrase: TestStore.passphrase)
        let old = 50_000
        try LogPruneBatchTests.fill(pruner, old: old, recent: 0)

        let seen = Mutex(Seen())
        let outcome = Mutex<Result<LogPruneResult, any Error>?>(nil)
        Thread.detachNewThread {
            // Batches five times the command's: SQLite holds the lock for most of the prune.
            let result = Result {
                try pruner.pruneLog(before: LogPruneBatchTests.cutoff, batchSize: Self.batch) { _ in seen.withLock { $0.batches += 1 } }
            }
            outcome.withLock { $0 = result }
            seen.withLock { $0.pruneEnded = true }
        }
        let writes = 3
        let written = Mutex<Result<Void, any Error>?>(nil)
        // Threads of their own, not the tests' shared pool, which other suites can keep busy.
        Thread.detachNewThread {
            // SMS logged one after the other, each in its own write, as the daemon logs them: each
            // after a batch it has not seen yet, at a moment of its own in the prune's cycle, so
            // most start while a batch holds the lock and wait in SQLite's busy handler.
            let result = Result {
                var after = 0
                for _ in 0..<writes {
                    while seen.withLock({ $0.batches == after && !$0.pruneEnded }) { Thread.sleep(forTimeInterval: 0.002) }
                    after = seen.withLock { $0.batches }
                    Thread.sleep(forTimeInterval: .random(in: 0..<0.03))
                    try daemon.write { tx in _ = try tx.appendLog(LogPruneBatchTests.entry(LogPruneBatchTests.now)) }
                    seen.withLock { $0.writesAfterThePrune.append($0.pruneEnded) }
                }
            }
            written.withLock { $0 = result }
        }
        #expect(await eventually(timeout: .seconds(300)) { seen.withLock { $0.pruneEnded } && written.withLock { $0 != nil } })

        try #require(try written.withLock { $0 }).get()
        let result = try #require(try outcome.withLock { $0 }?.get())
        #expect(result.deleted == old)
        let final = seen.withLock { $0 }
        #expect(final.batches == old / Self.batch)
        #expect(
            final.writesAfterThePrune == Array(repeating: false, count: writes),
            "a write waited for the end of the prune (\(final.writesAfterThePrune))")
        #expect(try LogPruneBatchTests.count(pruner, "messages") == writes)
    }
}
