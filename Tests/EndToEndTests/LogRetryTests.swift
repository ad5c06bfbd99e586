import Foundation
import GRDB
import TestSupport
import Testing

/// `smsgw log retry ID`: what it refuses, with the documented exit statuses.
@Suite("log retry", .blockingOffPool)
struct LogRetryTests {
    @Test("A message with nothing failed exits 65 and stays queued; an unknown id exits 66")
    func refusals() throws {
        try withTemporaryDirectory { root in
            let alice = try Self.alice(in: root)
            let id = try Self.queue(from: alice)
            let queued = try alice.run(["log", "retry", id])
            #expect(queued.status == 65 && queued.stderr.contains("no failed SMS"), "\(queued.stderr)")
            #expect(try alice.expect(["log", "show", id]).stdout.contains("\tqueued\t"))
            let unknown = try alice.run(["log", "retry", "424242"])
            #expect(unknown.status == 66, "\(unknown.stderr)")
            #expect(try alice.run(["log", "retry", "seven"]).status == 64)
        }
    }

    @Test("log show prints a failed message's error after its history, escaped; the line above holds its text")
    func showPrintsTheError() throws {
        try withTemporaryDirectory { root in
            let alice = try Self.alice(in: root)
            let id = try Self.queue(from: alice)
            try DatabaseQueue(path: alice.dataDir.appendingPathComponent("smsgw.sqlite").path).write { db in
                try db.execute(
                    sql: "UPDATE messages SET status = 'failed', error = ? WHERE id = ?",
                    arguments: ["The network refused the number\u{1B}[2J.", Int64(id)])
            }
            let shown = try alice.expect(["log", "show", id]).stdout
            #expect(shown.contains("\tfailed\tHello there.\n"), "\(shown)")
            #expect(shown.hasSuffix("\n  error: The network refused the number\\x1B[2J.\n"), "\(shown)")
        }
    }

    @Test("A retry of a permanently failed message warns that retrying unchanged will not help; a given-up one does not")
    func permanentFailureWarns() throws {
        try withTemporaryDirectory { root in
            let alice = try Self.alice(in: root)
            for permanent in [true, false] {
                let id = try Self.queue(from: alice)
                // As the daemon records a refused number (permanent) or giving up after temporary failures.
                try DatabaseQueue(path: alice.dataDir.appendingPathComponent("smsgw.sqlite").path).write { db in
                    try db.execute(
                        sql: "UPDATE outbox SET state = 'failed', last_error = 'refused', error_permanent = ? WHERE message_id = ?",
                        arguments: [permanent ? 1 : 0, Int64(id)])
                }
                let retried = try alice.expect(["log", "retry", id])
                #expect(retried.stdout == "Queued its SMS again.\n")
                #expect(retried.stderr.contains("Retrying unchanged will not help") == permanent, "\(retried.stderr)")
            }
        }
    }

    /// Alice, paired with bob, who has a number.
    static func alice(in root: URL) throws -> Peer {
        let (alice, _) = try Peer.pairedCouple(in: root)
        try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
        return alice
    }

    /// Queues a text to bob (no daemon runs); its message id.
    static func queue(from alice: Peer) throws -> String {
        try alice.expect(["send", "bob"], input: "Hello there.\n").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
