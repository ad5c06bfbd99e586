import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smsgw serve` as a service: one daemon per store, health over the status socket without the
/// passphrase, the process's secrets, and backups, each through the real binary on `serve --sim`.
@Suite("The daemon as a service", .serialized, .blockingOffPool)
struct ServiceTests {
    @Test(
        "a second serve on the same store is refused with the first one's PID; status and send tell a running daemon from a killed one by its lock"
    )
    func oneDaemonPerStore() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Self.pairedWithNumbers(in: root)
            let first = try await ServeProcess.simulated(alice, in: root)

            let second = try alice.run(["serve", "--sim", "--sim-dir", root.appendingPathComponent("sim2").path])
            #expect(second.status == 75, "a second serve exited \(second.status): \(second.stderr)")
            #expect(second.stderr.contains("PID \(first.pid)"), "\(second.stderr)")
            #expect(first.process.isRunning)

            // Without the passphrase: the running daemon answers over its socket.
            let status = try alice.status(removing: ["SMSGW_PASSPHRASE"])
            #expect(status.daemon?.running == true && status.daemon?.pid == first.pid)
            #expect(status.modems.map(\.name) == ["+15550001"], "the second serve overwrote the modem rows: \(status.modems)")
            let socket = alice.dataDir.appendingPathComponent("smsgw.serve.sock").path
            #expect(try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int == 0o600)

            let secret = "nobody reads this on the status socket"
            let sent = try alice.expect(["send", "bob"], input: secret)
            #expect(!sent.stderr.contains("warning"), "send warned while the daemon runs: \(sent.stderr)")
            let plain = try alice.run(["status"], removing: ["SMSGW_PASSPHRASE"])
            #expect(
                plain.status == 0 && plain.lines.first?.hasPrefix("Daemon: running (PID \(first.pid), started ") == true, "\(plain.stdout)")
            let json = try alice.run(["status", "--json"], removing: ["SMSGW_PASSPHRASE"])
            #expect(!plain.stdout.contains(secret) && !json.stdout.contains(secret))

            // Killed: the kernel drops the lock at once; no five-minute guess.
            #expect(try await first.stop(signal: SIGKILL) == SIGKILL)
            let queued = try alice.expect(["send", "bob", "after the kill"])
            #expect(queued.stderr.contains("no gateway daemon is running"), "\(queued.stderr)")
            let stopped = try alice.expect(["status"])
            #expect(stopped.lines.first?.hasPrefix("Daemon: not running") == true, "\(stopped.stdout)")
            #expect(try alice.status().daemon?.running == false)
        }
    }

    @Test(
        "the daemon tells systemd it is ready (Type=notify), drops SMSGW_PASSPHRASE from its environment, and a SIGTERM stops it with status 0 and no socket left"
    )
    func readinessAndEnvironment() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let notify = try NotifySocket(path: root.appendingPathComponent("notify").path)
            let daemon = try ServeProcess(
                alice, ["--sim", "--sim-dir", root.appendingPathComponent("sim").path], in: root,
                environment: ["NOTIFY_SOCKET": notify.path])
            let message = try await notify.receive(timeout: 60)
            #expect(message == "READY=1")
            // Ready means serving: the socket answers at once.
            #expect(try alice.status(removing: ["SMSGW_PASSPHRASE"]).daemon?.running == true)

            let environ = "/proc/\(daemon.pid)/environ"
            if getuid() == 0 {
                let environment = try Data(contentsOf: URL(fileURLWithPath: environ))
                #expect(environment.range(of: Data(Peer.passphrase.utf8)) == nil, "/proc/PID/environ still holds the passphrase")
            } else {
                // A non-dumpable process's /proc files belong to root: its own user cannot read
                // them at all, the passphrase or anything else.
                let owner = try FileManager.default.attributesOfItem(atPath: environ)[.ownerAccountID] as? Int
                #expect(owner == 0, "the daemon is dumpable")
                #expect(FileManager.default.contents(atPath: environ) == nil, "\(environ) is readable by the daemon's user")
            }

            #expect(try await daemon.stop() == 0)
            #expect(!FileManager.default.fileExists(atPath: alice.dataDir.appendingPathComponent("smsgw.serve.sock").path))
        }
    }

    @Test(
        "a passphrase file ending in CRLF unlocks; with both variables set SMSGW_PASSPHRASE wins, and a wrong passphrase names its source")
    func passphraseSources() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let crlf = root.appendingPathComponent("passphrase-crlf")
            try Data("\(Peer.passphrase)\r\n".utf8).write(to: crlf)
            let fromFile = try alice.run(
                ["contact", "list"], removing: ["SMSGW_PASSPHRASE"], environment: ["SMSGW_PASSPHRASE_FILE": crlf.path])
            #expect(fromFile.status == 0, "a CRLF passphrase file: \(fromFile.stderr)")

            let fromStdin = try alice.run(
                ["contact", "list"], input: Peer.passphrase + "\n", removing: ["SMSGW_PASSPHRASE"],
                environment: ["SMSGW_PASSPHRASE_FILE": "/dev/stdin"])
            #expect(fromStdin.status == 0, "SMSGW_PASSPHRASE_FILE=/dev/stdin: \(fromStdin.stderr)")

            let wrongFile = root.appendingPathComponent("passphrase-stale")
            try Data("an old passphrase\n".utf8).write(to: wrongFile)
            let stale = try alice.run(
                ["contact", "list"], removing: ["SMSGW_PASSPHRASE"], environment: ["SMSGW_PASSPHRASE_FILE": wrongFile.path])
            #expect(stale.status == 77)
            #expect(
                stale.stderr.contains("The passphrase from the file \(wrongFile.path) (SMSGW_PASSPHRASE_FILE) is wrong"), "\(stale.stderr)")

            // Both set: the variable is used and the file ignored, and the error says so.
            let both = try alice.run(
                ["contact", "list"], environment: ["SMSGW_PASSPHRASE": "a wrong passphrase", "SMSGW_PASSPHRASE_FILE": crlf.path])
            #expect(both.status == 77)
            #expect(
                both.stderr.contains("The passphrase from SMSGW_PASSPHRASE (SMSGW_PASSPHRASE_FILE is ignored while it is set) is wrong"),
                "\(both.stderr)")
            // Two failures so far: the right passphrase still unlocks (and resets the count).
            #expect(try alice.run(["contact", "list"]).status == 0)
        }
    }

    @Test("smsgw backup writes a 0600 copy while the daemon runs that opens as a complete store, and never overwrites a file")
    func backupWhileRunning() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Self.pairedWithNumbers(in: root)
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let id = try #require(Int64(try alice.expect(["send", "bob", "in the backup"]).lines.first ?? ""))

            let previous = umask(0o022)
            defer { umask(previous) }
            let file = root.appendingPathComponent("backups/alice.sqlite")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let backup = try alice.run(["backup", file.path], removing: ["SMSGW_PASSPHRASE"])
            #expect(backup.status == 0, "backup exited \(backup.status): \(backup.stderr)")
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["alice.sqlite"])

            let again = try alice.run(["backup", file.path])
            #expect(again.status == 65 && again.stderr.contains("exists"), "\(again.status): \(again.stderr)")
            try await daemon.stop()

            // Restored into a fresh data directory, the copy holds the account and the message.
            let restored = Peer(name: "restored", dataDir: root.appendingPathComponent("restored"))
            try FileManager.default.createDirectory(at: restored.dataDir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file, to: restored.dataDir.appendingPathComponent("smsgw.sqlite"))
            let log = try restored.expect(["log", "--json"])
            #expect(log.stdout.contains("\"id\":\(id),") && log.stdout.contains("in the backup"), "\(log.stdout)")
        }
    }

    @Test("contact edit --modem warns about a modem the daemon does not drive, and status marks the contact")
    func pinnedToUnknownModem() async throws {
        try await withTemporaryDirectory { root in
            let (alice, _) = try Self.pairedWithNumbers(in: root)
            let daemon = try await ServeProcess.simulated(alice, in: root)

            let typo = try alice.expect(["contact", "edit", "bob", "--modem", "+1555OOO1"])
            #expect(typo.stderr.contains("no modem named \"+1555OOO1\" is configured"), "\(typo.stderr)")
            let known = try alice.expect(["contact", "edit", "bob", "--modem", "+15550001"])
            #expect(!known.stderr.contains("warning"), "\(known.stderr)")
            #expect(try alice.status(removing: ["SMSGW_PASSPHRASE"]).contacts.first?.modemMissing == false)

            _ = try alice.expect(["contact", "edit", "bob", "--modem", "north"])
            #expect(try alice.status(removing: ["SMSGW_PASSPHRASE"]).contacts.first?.modemMissing == true)
            let plain = try alice.run(["status"], removing: ["SMSGW_PASSPHRASE"])
            #expect(plain.stdout.contains("via north (no such modem is configured: any modem sends)"), "\(plain.stdout)")
            try await daemon.stop()
            // The last daemon's modems still count once it stopped.
            #expect(try alice.status().contacts.first?.modemMissing == true)
        }
    }

    /// Alice (+15550001) and bob (+15550002), paired, each knowing the other's number.
    static func pairedWithNumbers(in root: URL) throws -> (Peer, Peer) {
        let alice = try Peer.create("alice", in: root)
        let bob = try Peer.create("bob", in: root)
        let aliceCode = try code(alice.expect(["contact", "add", "bob", "--number", "+15550002", "--json"]))
        let bobCode = try code(bob.expect(["contact", "add", "alice", "--number", "+15550001", "--json"]))
        _ = try alice.pair(bob, code: bobCode)
        _ = try bob.pair(alice, code: aliceCode)
        return (alice, bob)
    }

    private static func code(_ result: RunResult) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["pairingCode"] as? String)
    }
}
