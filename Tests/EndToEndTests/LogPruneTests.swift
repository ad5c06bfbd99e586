import Foundation
import GRDB
import Logging
import Store
import TestSupport
import Testing

/// `smsgw log prune`: the log does not keep texts for ever (docs/PROTOCOL.md §7.4).
@Suite("Log prune", .serialized, .blockingOffPool)
struct LogPruneTests {
    @Test("log prune deletes old messages, keeps recent ones, and leaves no write-ahead log")
    func pruneDeletesOldMessages() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let ciphertexts = try alice.encrypt(["first secret", "second secret"], for: bob)
            #expect(try bob.decrypt(ciphertexts, from: alice).status == 0)
            #expect(try bob.expect(["log", "--json"]).lines.count == 2)

            let kept = try bob.expect(["log", "prune", "--older-than", "30"])
            #expect(kept.lines.first == "0", "\(kept.stdout)")
            #expect(try bob.expect(["log", "--json"]).lines.count == 2)

            let pruned = try bob.expect(["log", "prune", "--older-than", "0"])
            #expect(pruned.lines.first == "2", "\(pruned.stdout)")
            #expect(pruned.stderr.isEmpty, "\(pruned.stderr)")
            #expect(try bob.expect(["log"]).stdout.isEmpty)
            let wal = bob.dataDir.appendingPathComponent("smsgw.sqlite-wal")
            let size = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? 0
            #expect(size == 0)
            // The keys are untouched: messages still flow.
            let next = try alice.encrypt(["after the prune"], for: bob)
            #expect(try bob.decrypt(next, from: alice).lines == ["after the prune"])

            #expect(try bob.run(["log", "prune", "--older-than", "-1"]).status == 64)
            #expect(try bob.run(["log", "prune"]).status == 64)
        }
    }

    @Test("Ctrl-C stops a long prune after its batch: the checkpoint still runs, it says how many went, exits 130, and a rerun finishes")
    func interruptedPruneStopsCleanly() async throws {
        guard TerminalSession.isAvailable else { return }
        try await withTemporaryDirectory { root in
            let bob = try Peer.create("bob", in: root)
            // Enough old messages for several batches of 1,000 after the first progress line
            // (one per 10,000 deleted), each with its journal event, and a few recent ones.
            let (old, recent) = (30_000, 7)
            let store = try Self.open(bob)
            try store.write { tx in
                for index in 0..<(old + recent) {
                    let time = index < old ? Date() - 60 * 86_400 + Double(index) : Date() - Double(index)
                    _ = try tx.appendLog(
                        NewLogEntry(
                            time: time, direction: .incoming, contact: nil, remoteNumber: "+15550001", status: .decrypted, text: "old"))
                }
            }
            try store.close()

            let terminal = try TerminalSession(["log", "prune", "--older-than", "30"], environment: bob.environment)
            // Typed as the line shows, not at the test's next look, which a loaded machine can
            // delay past the prune's end.
            terminal.type("\u{03}", onceShown: "10000 of \(old) messages deleted")
            let (status, screen) = try await terminal.finish(timeout: 300)
            #expect(status == 130, "\(screen)")
            let stopped = try #require(screen.firstMatch(of: /Stopped by SIGINT after (\d+) messages; older ones are left/), "\(screen)")
            let deleted = try #require(Int(stopped.1))
            #expect(deleted >= 10_000 && deleted < old, "\(screen)")
            #expect(screen.contains("Deleted \(deleted) messages logged before"), "\(screen)")
            #expect(screen.contains("Run `smsgw log prune --older-than 30` again to delete the rest."), "\(screen)")
            // The checkpoint ran: the deleted pages left no copy in the -wal file.
            let wal = bob.dataDir.appendingPathComponent("smsgw.sqlite-wal")
            #expect(((try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? 0) == 0)

            // Whole batches went: every message left has its feed rows and event, none dangles.
            let database = try DatabaseQueue(path: bob.dataDir.appendingPathComponent("smsgw.sqlite").path)
            let (left, dangling) = try await database.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages"),
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT (SELECT COUNT(*) FROM events WHERE message_id IS NOT NULL AND message_id NOT IN (SELECT id FROM messages))
                                + (SELECT COUNT(*) FROM message_events WHERE message_id NOT IN (SELECT id FROM messages))
                            """)
                )
            }
            try database.close()
            #expect(left == old + recent - deleted && dangling == 0, "\(String(describing: left)), \(String(describing: dangling))")

            let rerun = try bob.expect(["log", "prune", "--older-than", "30"])
            #expect(rerun.lines.first == "\(old - deleted)", "\(rerun.stdout)")
            #expect(try bob.expect(["log", "--json", "--limit", "1000"]).lines.count == recent)
        }
    }

    /// Bob's store, opened and unlocked in the test process as the binary opens it.
    static func open(_ peer: Peer) throws -> UnlockedStore {
        var logger = Logger(label: "smsgw.tests")
        logger.logLevel = .critical
        return try GatewayStore.open(directory: peer.dataDir, logger: logger).unlockSerialized(passphrase: Peer.passphrase)
    }
}
