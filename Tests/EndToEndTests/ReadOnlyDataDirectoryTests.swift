import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A data directory its user can no longer write (chmod 500, the database 400: as a disk the
/// kernel remounted read-only, or another user's copy), run as a normal user, whom the modes
/// bind (root passes them): backup, status, log and contact list still work, writes are refused
/// with the sentence that says what to do, and nothing in the directory changes.
@Suite("A read-only data directory", .serialized, .blockingOffPool)
struct ReadOnlyDataDirectoryTests {
    private static let passphrase = "read only passphrase for the test"

    /// Runs `smsgw arguments…` as the unprivileged user on `dataDir`.
    private func smsgw(
        _ binary: String, _ dataDir: URL, _ arguments: [String], passphrase: String = passphrase
    ) throws -> (status: Int32, output: String) {
        let environment = ["PATH=/usr/bin:/bin", "SMSGW_PASSPHRASE=\(passphrase)", "SMSGW_DATA_DIR=\(dataDir.path)"]
        return try UnprivilegedUser.run("/usr/bin/env", ["-i"] + environment + [binary] + arguments)
    }

    private func listing(_ directory: URL) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.map {
                ($0, FileManager.default.contents(atPath: directory.appendingPathComponent($0).path) ?? Data())
            })
    }

    @Test func itIsReadAndBackedUpAndEveryWriteIsRefused() throws {
        guard let (binary, scratch) = try UnprivilegedUser.prepare() else { return }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let store = scratch.appendingPathComponent("store")
        let made = try smsgw(binary, store, ["init", "--username", "field", "--kdf-memory", "19", "--kdf-iterations", "2"])
        #expect(made.status == 0, "init: \(made.output)")
        let added = try smsgw(binary, store, ["contact", "add", "bob", "--number", "+15551234567"])
        #expect(added.status == 0, "contact add: \(added.output)")
        #expect(chmod(store.appendingPathComponent("smsgw.sqlite").path, 0o400) == 0)
        #expect(chmod(store.path, 0o500) == 0)
        defer { _ = chmod(store.path, 0o700) }
        let before = listing(store)
        #expect(!before.keys.contains("smsgw.sqlite-wal"), "the store was not closed cleanly: \(before.keys.sorted())")

        for reading in [["status"], ["log"], ["contact", "list"], ["contact", "show", "bob"]] {
            let result = try smsgw(binary, store, reading)
            #expect(result.status == 0, "\(reading.joined(separator: " ")): \(result.output)")
        }
        // The status says first that the store is read-only, and what to do.
        let status = try smsgw(binary, store, ["status"])
        #expect(
            status.output.hasPrefix(
                "Store: read-only (this user may not write to its file or its data directory); nothing can be changed in it: back it up with `smsgw backup FILE`"
            ), "\(status.output)")
        let json = try smsgw(binary, store, ["status", "--json"])
        #expect(json.output.contains("\"storeReadOnly\":\"permissions\""), "\(json.output)")
        // A wrong passphrase is not counted there, and is not said to be.
        let wrong = try smsgw(binary, store, ["contact", "list"], passphrase: "not the passphrase at all")
        #expect(wrong.status == 77, "\(wrong.output)")
        #expect(wrong.output.contains("(attempts are not counted while the store is read-only)"), "\(wrong.output)")
        #expect(!wrong.output.contains("before the account locks"), "\(wrong.output)")

        let backup = scratch.appendingPathComponent("backup.sqlite")
        let backedUp = try smsgw(binary, store, ["backup", backup.path])
        #expect(backedUp.status == 0, "backup: \(backedUp.output)")
        #expect(backedUp.output.contains("The store was read-only (this user may not write to its file or its data directory)"))

        let sentence = "is read-only (this user may not write to its file or its data directory); back it up with `smsgw backup FILE`"
        for writing in [["contact", "add", "carol"], ["send", "bob", "hello"], ["serve", "--sim"]] {
            let result = try smsgw(binary, store, writing)
            #expect(result.status == 69, "\(writing.joined(separator: " ")): \(result.output)")
            #expect(result.output.contains(sentence), "\(writing.joined(separator: " ")): \(result.output)")
        }
        #expect(listing(store) == before, "a command wrote to the read-only data directory")

        // The backup restores on a writable disk, with what the store held.
        let restored = scratch.appendingPathComponent("restored")
        #expect(try smsgw(binary, restored, ["init", "--username", "field", "--kdf-memory", "19", "--kdf-iterations", "2"]).status == 0)
        let restore = try smsgw(binary, restored, ["restore", backup.path])
        #expect(restore.status == 0, "restore: \(restore.output)")
        let contacts = try smsgw(binary, restored, ["contact", "list"])
        #expect(contacts.status == 0 && contacts.output.contains("bob"), "contact list: \(contacts.output)")
        let writable = try smsgw(binary, restored, ["contact", "add", "carol"])
        #expect(writable.status == 0, "contact add after the restore: \(writable.output)")
    }
}
