import Foundation
import TestSupport
import Testing

/// What a command (not `serve`) logs at warning reaches its user as its other diagnostics do: one
/// `smsgw: warning:` sentence, with the facts it does not already say.
@Suite("A command's warnings")
struct CommandWarningTests {
    @Test("log --follow on PostgreSQL says in one warning sentence that it lost the other nodes' notices, and why")
    func lostNoticesAreOneSentence() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let (database, store) = try cluster.storeEnvironment(in: root)
            let alice = try Peer.create("alice", in: root, storeEnvironment: store)
            let follower = try RunningCommand(["log", "--follow"], as: alice)
            defer { follower.stop() }
            let listener = "FROM pg_stat_activity WHERE datname = '\(database.database)' AND query ILIKE 'LISTEN%'"
            #expect(await eventually { try cluster.psql("SELECT count(*) \(listener) AND query ILIKE '%smsgw_commits%'") == ["1"] })
            try cluster.psql("SELECT pg_terminate_backend(pid) \(listener)")
            #expect(await eventually { follower.stderr.contains("Lost the store's notices") }, "\(follower.stderr)")
            let lines = follower.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(lines)")
            let line = String(lines.first ?? "")
            #expect(line.hasPrefix("smsgw: warning: Lost the store's notices from the other nodes; connecting again"), "\(line)")
            // The server's words, then when it tries again, as short facts after the sentence.
            #expect(line.contains("(error=\"") && line.contains("SQLSTATE 57P01") && line.hasSuffix(", retry-in=1)"), "\(line)")
        }
    }
}
