import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a command (not `serve`) logs at warning reaches its user as its other diagnostics do: one
/// `smsgw: warning:` sentence, with the facts it does not already say.
@Suite("A command's warnings", .blockingOffPool)
struct CommandWarningTests {
    @Test("under systemd a command's warnings, its own and the store's, start with the warning's priority")
    func warningsCarryTheirPriorityInTheJournal() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            #expect(chmod(alice.dataDir.path, 0o755) == 0)
            let log = root.appendingPathComponent("stderr")
            #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
            var info = stat()
            #expect(stat(log.path, &info) == 0)
            let command = try SMSGWBinary.makeProcess(
                ["otp", "add", "bank", "--secret", "JBSWY3DPEHPK3PXP"],
                environment: alice.environment.merging(["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino)"]) { $1 })
            command.standardOutput = FileHandle.nullDevice
            command.standardError = try FileHandle(forWritingTo: log)
            command.standardInput = FileHandle.nullDevice
            try command.run()
            #expect(command.waitForExit().succeeded)
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("<4>smsgw: warning: The data directory \(alice.dataDir.path) is readable") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("<4>smsgw: warning: the secret was given on the command line") }, "\(lines)")
        }
    }

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
