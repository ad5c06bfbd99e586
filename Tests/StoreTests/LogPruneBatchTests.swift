import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

/// `log prune` deletes in short transactions (``UnlockedStore/pruneLog(before:batchSize:progress:stopRequested:)``):
/// another process's writes get in between, and one stopped half way is finished by a rerun.
@Suite("Store: pruning the log in batches", .dedicatedExecutor)
struct LogPruneBatchTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)
    static let cutoff = now - 30 * 86_400

    /// `old` messages received before the cutoff, then `recent` ones after it, each with its
    /// journal event (`message.received`).
    static func fill(_ store: UnlockedStore, old: Int, recent: Int) throws {
        try store.write { tx in
            for index in 0..<(old + recent) {
                let time = index < old ? cutoff - 86_400 + Double(index) : now - Double(index)
                _ = try tx.appendLog(entry(time))
            }
        }
    }

    static func entry(_ time: Date) -> NewLogEntry {
        NewLogEntry(time: time, direction: .incoming, contact: nil, remoteNumber: "+15550001", status: .decrypted, text: "a text")
    }

    static func count(_ store: UnlockedStore, _ table: String) throws -> Int {
        try store.read { try $0.db.value(Int.self, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    @Test("Another store logs while a prune of many messages runs; the summary counts what went", arguments: StoreBackendKind.allCases)
    func writerGetsIn(_ backend: StoreBackendKind) throws {
        let location = try location(backend)
        let (_, pruner) = try location.unlockedStore()
        // A second GatewayStore has its own connections, as the daemon's process would.
        let daemon = try location.open().unlock(passphrase: TestStore.passphrase)
        let old = 3_000
        let batch = 100
        try Self.fill(pruner, old: old, recent: 20)
        let eventsBefore = try Self.count(pruner, "events")

        let batches = Mutex(0)
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<LogPruneResult, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result {
                try pruner.pruneLog(before: Self.cutoff, batchSize: batch) { _ in
                    if batches.withLock({ count in
                        count += 1
                        return count
                    }) == 1 {
                        started.signal()
                    }
                }
            }
            outcome.withLock { $0 = result }
            started.signal()
            finished.signal()
        }
        #expect(started.wait(timeout: .now() + 600) == .success)
        // Three SMS logged one after the other, each in its own write, as the daemon does.
        for _ in 0..<3 {
            try daemon.write { tx in _ = try tx.appendLog(Self.entry(Self.now)) }
        }
        let batchesWhenLogged = batches.withLock { $0 }
        #expect(finished.wait(timeout: .now() + 600) == .success)

        let result = try #require(try outcome.withLock { $0 }?.get())
        let total = batches.withLock { $0 }
        #expect(total == old / batch)
        #expect(batchesWhenLogged < total, "the writes waited for the whole prune: \(batchesWhenLogged) of \(total) batches")
        #expect(result.deleted == old)
        let eventsAfter = try Self.count(pruner, "events")
        // Each message received has its journal event, which goes with it.
        #expect(result.eventsDeleted == old && eventsBefore + 3 - eventsAfter == old, "\(result), \(eventsBefore) → \(eventsAfter)")
        #expect(try Self.count(pruner, "messages") == 20 + 3)
    }

    @Test("A prune stopped after a batch leaves a consistent log, and a rerun deletes the rest", arguments: StoreBackendKind.allCases)
    func stoppedPruneResumes(_ backend: StoreBackendKind) throws {
        let (_location, _, store) = try unlockedStore(on: backend)
        try withExtendedLifetime(_location) {
            try Self.fill(store, old: 250, recent: 5)
            // One old message still waiting to be sent stays, whatever its age.
            let contact = try store.addContact(name: "alice", number: TestStore.number("+447700900010"), pairingCode: Data())
            try store.write { tx in
                let id = try tx.appendLog(
                    NewLogEntry(
                        time: Self.cutoff - 86_400, direction: .outgoing, contact: contact, remoteNumber: nil, status: .queued,
                        text: "waiting"))
                try tx.enqueueOutbox("C", to: contact, messageID: id)
            }
            struct Interrupted: Error {}
            #expect(throws: Interrupted.self) {
                _ = try store.pruneLog(before: Self.cutoff, batchSize: 100) { step in
                    #expect(step == LogPruneProgress(deleted: 100, total: 250))
                    throw Interrupted()
                }
            }
            #expect(try Self.count(store, "messages") == 250 - 100 + 5 + 1)
            let orphans = """
                SELECT (SELECT COUNT(*) FROM message_events WHERE message_id NOT IN (SELECT id FROM messages))
                    + (SELECT COUNT(*) FROM events WHERE message_id IS NOT NULL AND message_id NOT IN (SELECT id FROM messages))
                """
            #expect(try store.read { try $0.db.value(Int.self, sql: orphans) } == 0)

            let rest = try store.pruneLog(before: Self.cutoff, batchSize: 100)
            #expect(rest.deleted == 150)
            #expect(try Self.count(store, "messages") == 5 + 1)
            #expect(try store.pruneLog(before: Self.cutoff, batchSize: 100).deleted == 0)
        }
    }
}
