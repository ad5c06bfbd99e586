import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The data directory and its files are checked before use, through the binary.
@Suite("Data directory checks", .blockingOffPool)
struct DataDirectoryCheckTests {
    @Test func aDirectoryOthersMayWriteToIsRefusedWithTheFix() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            #expect(chmod(alice.dataDir.path, 0o777) == 0)
            let refused = try alice.run(["contact", "list"])
            #expect(refused.status == 78)
            #expect(
                refused.stderr.contains("writable by other users") && refused.stderr.contains("chmod 700 \(alice.dataDir.path)"),
                "\(refused.stderr)")
            // The sentence's fix works.
            #expect(chmod(alice.dataDir.path, 0o700) == 0)
            try alice.expect(["contact", "list"])
        }
    }

    @Test("a directory others may read works, with one smsgw: warning line naming the chmod; --verbose logs it as an event")
    func aDirectoryOthersMayReadIsOneWarningSentence() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let path = alice.dataDir.path
            #expect(chmod(path, 0o755) == 0)
            let warned = try alice.expect(["contact", "list"])
            #expect(
                warned.stderr
                    == "smsgw: warning: The data directory \(path) is readable by other users (mode 755); make it private with chmod 700 \(path).\n",
                "\(warned.stderr)")
            let verbose = try alice.expect(["contact", "list", "--verbose"])
            #expect(
                verbose.stderr.contains(" warning smsgw: smsgw.store.mode=755 smsgw.store.path=\(path) [Store] The data directory "),
                "\(verbose.stderr)")
            #expect(chmod(path, 0o700) == 0)
            #expect(try alice.expect(["contact", "list"]).stderr.isEmpty)
        }
    }

    @Test("a data directory that cannot be looked into is refused with what is wrong, not called a store to create")
    func aPathThatCannotBeLookedIntoIsNotAMissingStore() throws {
        try withTemporaryDirectory { root in
            let file = root.appendingPathComponent("a-file")
            try Data().write(to: file)
            let backup = root.appendingPathComponent("backup.sqlite").path
            for arguments in [["contact", "list"], ["backup", backup]] {
                let onAFile = try Peer(name: "alice", dataDir: file).run(arguments)
                #expect(onAFile.status == 78 && onAFile.stderr.contains("is a file; choose a directory"), "\(arguments): \(onAFile.stderr)")
            }
            let check = try Peer(name: "alice", dataDir: file).run(["serve", "--check", "--sim"])
            #expect(check.stdout.contains("PROBLEM data directory: \(file.path) is a file"), "\(check.stdout)")
            // Another user may not search root (0700): `init` would fail there too.
            guard case .success(_?) = UnprivilegedUser.account else { return }
            let hidden = root.appendingPathComponent("alice").path
            for arguments in [["contact", "list"], ["backup", backup], ["restore", backup]] {
                let refused = try UnprivilegedUser.run(try SMSGWBinary.require().path, arguments + ["--data-dir", hidden])
                #expect(refused.status == 78 && refused.output.contains("Permission denied"), "\(arguments): \(refused.output)")
                #expect(!refused.output.contains("no store") && !refused.output.contains("no database"), "\(refused.output)")
            }
            let unseen = try UnprivilegedUser.run(try SMSGWBinary.require().path, ["serve", "--check", "--sim", "--data-dir", hidden])
            #expect(unseen.output.contains("PROBLEM data directory: cannot look at \(hidden) (Permission denied)"), "\(unseen.output)")
        }
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        // Only root can give a directory to another user.
        guard geteuid() == 0 else { return }
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            #expect(chown(alice.dataDir.path, 65534, 65534) == 0)
            let refused = try alice.run(["contact", "list"])
            #expect(refused.status == 78)
            #expect(refused.stderr.contains("belongs to another user") && refused.stderr.contains("chown"), "\(refused.stderr)")
        }
    }

    @Test func aSymlinkedDatabaseIsRefusedNotFollowed() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let database = alice.dataDir.appendingPathComponent("smsgw.sqlite")
            let elsewhere = root.appendingPathComponent("elsewhere.sqlite")
            try FileManager.default.moveItem(at: database, to: elsewhere)
            try FileManager.default.createSymbolicLink(at: database, withDestinationURL: elsewhere)
            let refused = try alice.run(["contact", "list"])
            #expect(refused.status == 78)
            #expect(refused.stderr.contains("symbolic link"), "\(refused.stderr)")
            // Nothing was written through the link.
            #expect(!FileManager.default.fileExists(atPath: elsewhere.path + "-wal"))
        }
    }
}
