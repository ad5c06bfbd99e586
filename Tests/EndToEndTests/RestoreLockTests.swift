import Foundation
import Store
import TestSupport
import Testing

/// `smsgw restore` and the other smsgw processes of a data directory: none writes to the store a
/// restore replaces, and a restore cleans up after one that was killed.
@Suite("smsgw restore beside other processes", .blockingOffPool)
struct RestoreLockTests {
    @Test("a restore refuses while another process has the store open, and nothing changes")
    func refusedWhileAnotherProcessHasTheStore() async throws {
        try await withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            _ = try alice.encrypt(["after the backup"], for: bob)

            let follower = try BackgroundSMSGW.start(["log", "--follow"], environment: alice.environment)
            defer { follower.stop() }
            // Its first lines come after its unlock, the last write it makes.
            try await follower.waitForOutput(containing: "after the backup", timeout: 60)
            #expect(Self.storeIsOpen(in: alice.dataDir), "log --follow does not hold the store")
            let before = try RestoreTests.Snapshot(alice.dataDir, backup: backup)
            let refused = try alice.run(["restore", backup.path])
            #expect(refused.status == 75, "\(refused.stderr)")
            #expect(refused.stderr.contains("Another smsgw process has the store in \(alice.dataDir.path) open"), "\(refused.stderr)")
            #expect(refused.stderr.contains("`smsgw restore` again"), "\(refused.stderr)")
            // The follower's reads move its marks in the -shm; the rest must stay byte for byte.
            let after = try RestoreTests.Snapshot(alice.dataDir, backup: backup)
            #expect(after.names == before.names, "a refused restore left or removed a file")
            #expect(
                after.files.filter { !$0.key.hasSuffix("-shm") } == before.files.filter { !$0.key.hasSuffix("-shm") },
                "a refused restore changed a file")

            follower.stop()
            try alice.expect(["restore", backup.path])
            #expect(try !alice.expect(["log"]).stdout.contains("after the backup"))
        }
    }

    @Test("while a restore runs, every other command is refused (exit 75) and writes nothing; it works again afterwards")
    func otherCommandsRefusedDuringARestore() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            // The restore reads its passphrase from stdin after it has taken the store: it waits there.
            var environment = alice.environment
            environment["SMSGW_PASSPHRASE"] = ""
            environment["SMSGW_PASSPHRASE_FILE"] = "/dev/stdin"
            let restore = try BackgroundSMSGW.start(["restore", backup.path], environment: environment)
            defer { restore.stop() }
            #expect(
                await eventually {
                    try FileManager.default.contentsOfDirectory(atPath: alice.dataDir.path).contains { $0.hasPrefix(".smsgw.restore-") }
                }, "the restore never staged the backup: \(restore.text)")

            let commands = [
                ["contact", "add", "carol", "--number", "+15550003"], ["log"], ["status"], ["restore", backup.path], ["webhook", "list"],
                ["send", "bob", "during the restore"],
            ]
            for command in commands {
                let refused = try alice.run(command)
                #expect(refused.status == 75, "\(command): \(refused.stderr)")
                #expect(
                    refused.stderr.contains("A restore is replacing the store in \(alice.dataDir.path); try again when it has finished"),
                    "\(command): \(refused.stderr)")
            }

            try restore.finishInput(Peer.passphrase + "\n")
            #expect(try await restore.waitForExit(timeout: 120) == 0, "\(restore.text)")
            try alice.expect(["contact", "add", "carol", "--number", "+15550003"])
            let names = try alice.expect(["contact", "list"]).stdout
            #expect(names.contains("carol") && names.contains("bob"), "\(names)")
        }
    }

    @Test("what a killed restore left in the data directory is removed by the next one, which says so")
    func leftoversOfAKilledRestoreRemoved() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            let staging = alice.dataDir.appendingPathComponent(".smsgw.restore-0badf00d")
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
            try FileManager.default.copyItem(at: backup, to: staging.appendingPathComponent("smsgw.sqlite"))
            let partial = alice.dataDir.appendingPathComponent(".smsgw.sqlite.replaced-20260101-000000.partial-1a2b")
            try Data("half a copy".utf8).write(to: partial)

            let restored = try alice.expect(["restore", backup.path])
            #expect(
                restored.stdout.contains(
                    "Removed what an interrupted restore had left: .smsgw.restore-0badf00d, .smsgw.sqlite.replaced-20260101-000000.partial-1a2b."
                ), "\(restored.stdout)")
            let names = try FileManager.default.contentsOfDirectory(atPath: alice.dataDir.path)
            #expect(!names.contains { $0.hasPrefix(".smsgw.") }, "\(names)")
            let json = try alice.expect(["restore", backup.path, "--json"]).stdout
            #expect(json.contains("\"removedLeftovers\":[]"), "\(json)")
        }
    }

    /// Whether a process has the store of `directory` open: its lock cannot be had exclusive.
    static func storeIsOpen(in directory: URL) -> Bool {
        guard let lock = try? StoreLock.exclusive(directory: directory) else { return true }
        lock.release()
        return false
    }
}
