import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smsgw account passwd --rotate-key`: a new data key for everything, through the binary.
@Suite("Data key rotation", .serialized, .blockingOffPool)
struct RotateKeyTests {
    @Test func rotationKeepsEverythingReadableAndTheSessionsWorking() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let first = try alice.encrypt(["before the new key"], for: bob)
            #expect(try bob.decrypt(first, from: alice).lines == ["before the new key"])

            // The same passphrase again: only the data key changes.
            let rotated = try alice.run(["account", "passwd", "--rotate-key"], environment: ["SMSGW_NEW_PASSPHRASE": Peer.passphrase])
            #expect(rotated.status == 0, "\(rotated.stderr)")
            #expect(rotated.stdout.contains("new data key"))

            let log = try alice.expect(["log", "--json"])
            #expect(log.stdout.contains("before the new key"))
            let second = try alice.encrypt(["after the new key"], for: bob)
            #expect(try bob.decrypt(second, from: alice).lines == ["after the new key"])
            let reply = try bob.encrypt(["reply after it"], for: alice)
            #expect(try alice.decrypt(reply, from: bob).lines == ["reply after it"])
        }
    }

    @Test func rotationIsRefusedWhileTheDaemonRuns() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            // Hold the daemon's lock the way `smsgw serve` does.
            let fd = open(alice.dataDir.appendingPathComponent("smsgw.serve.lock").path, O_RDWR | O_CREAT, 0o600)
            try #require(fd >= 0)
            defer { close(fd) }
            #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
            let pid = Array("\(getpid())\n".utf8)
            #expect(write(fd, pid, pid.count) == pid.count)

            let refused = try alice.run(["account", "passwd", "--rotate-key"], environment: ["SMSGW_NEW_PASSPHRASE": Peer.passphrase])
            #expect(refused.status == 65)
            #expect(
                refused.stderr.contains("smsgw serve (process \(getpid())) is running") && refused.stderr.contains("stop it first"),
                "\(refused.stderr)")
            // A plain passphrase change needs no daemon stop.
            let plain = try alice.run(["account", "passwd"], environment: ["SMSGW_NEW_PASSPHRASE": Peer.passphrase])
            #expect(plain.status == 0, "\(plain.stderr)")
        }
    }
}
