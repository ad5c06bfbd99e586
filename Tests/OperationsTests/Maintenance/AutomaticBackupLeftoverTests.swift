import Foundation
import Operations
import Synchronization
import SystemCalls
import TestSupport
import Testing

@testable import Store

/// What interrupted automatic backups leave behind, and which of it is removed: never a copy
/// another process is writing, never a file that is not an automatic backup's.
@Suite("Automatic backups: leftovers of interrupted copies")
struct AutomaticBackupLeftoverTests {
    /// Writes `name` into `directory`, last changed `age` seconds ago.
    static func file(_ name: String, in directory: URL, age: TimeInterval) throws {
        let url = directory.appendingPathComponent(name)
        try Data("a partial copy\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
    }

    @Test("Old unlocked partial files of automatic backups and their journals go; locked, fresh or others' files stay")
    func onlyAbandonedLeftoversOfAutomaticBackupsGo() throws {
        try withTemporaryDirectory { directory in
            let old = AutomaticBackups.leftoverAge + 120
            let abandoned = [
                ".smsgw-20261125-013456.sqlite.partial-1A2B3C4D", ".smsgw-20261125-013456.sqlite.partial-1A2B3C4D-journal",
                ".smsgw-20261125-013457.sqlite.partial-0000abcd-journal",
            ]
            let kept = [
                // Being written: its writer holds the lock (another process; flock locks are per open file).
                ".smsgw-20261125-013458.sqlite.partial-DEADBEEF", ".smsgw-20261125-013458.sqlite.partial-DEADBEEF-journal",
                // Of other names: a backup of the operator's own, a near miss of the pattern.
                ".notes.sqlite.partial-1A2B3C4D", ".smsgw-2026112-0134590.sqlite.partial-1A2B3C4D",
                ".smsgw-20261125-013459.sqlite.partial-1A2B3C4G", ".smsgw-20261125-013459.sqlite.partial-1A2B3C4D.bak",
                // Backups and files of the operator's.
                "smsgw-20261125-013456.sqlite", "notes.txt",
            ]
            for name in abandoned + kept { try Self.file(name, in: directory, age: old) }
            // Changed a moment ago: the window between a copy's creation and its lock.
            try Self.file(".smsgw-20261125-013500.sqlite.partial-00000001", in: directory, age: 0)
            // A directory of the pattern's name is no file of a copy.
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(".smsgw-20261125-013501.sqlite.partial-00000002"), withIntermediateDirectories: false)
            let writer = try FileDescriptor.open(directory.appendingPathComponent(kept[0]).path, O_RDWR)
            #expect(try writer.lock(.exclusive, waiting: false))

            let removed = AutomaticBackups.removeLeftovers(in: directory, now: Date())
            #expect(removed == abandoned.sorted())
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
            #expect(
                left
                    == Set(kept + [".smsgw-20261125-013500.sqlite.partial-00000001", ".smsgw-20261125-013501.sqlite.partial-00000002"]),
                "\(left.sorted())")
            writer.unlock()
            #expect(AutomaticBackups.removeLeftovers(in: directory, now: Date()) == Array(kept[0...1]))
        }
    }

    @Test("A copy being written is no leftover, however old the clock says it is; the backup completes")
    func theCopyInProgressIsKept() throws {
        let data = TemporaryDirectory(prefix: "smsgw-leftover")
        let store = try data.open()
        let unlocked = try store.createAccount(username: "tester", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        try unlocked.write { tx in
            try tx.db.execute(sql: "CREATE TABLE filler (b BLOB)")
            for _ in 0..<12 { try tx.db.execute(sql: "INSERT INTO filler (b) VALUES (zeroblob(1048576))") }
        }
        let directory = data.root.appendingPathComponent("backups", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let seen = Seen()
        let written = try AutomaticBackups.write(unlocked.gateway, into: directory, keep: 2, now: Date()) {
            // Between the copy's steps, with a clock an hour ahead: the partial file is locked.
            let removed = AutomaticBackups.removeLeftovers(in: directory, now: Date().addingTimeInterval(3600))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            seen.names.withLock { $0.append(removed.isEmpty ? names.filter { $0.hasPrefix(".smsgw-") } : ["removed"]) }
            return false
        }
        let steps = seen.names.withLock { $0 }
        // The partial file (with SQLite's journal beside it while it writes) at every step, nothing removed.
        #expect(
            steps.count >= 2
                && steps.allSatisfy {
                    $0.contains { $0.range(of: #"^\.smsgw-.*\.partial-[0-9A-F]{8}$"#, options: .regularExpression) != nil }
                }, "\(steps)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [written.file.lastPathComponent])
        #expect(written.kept == 1)
    }

    /// What the copy's steps saw.
    final class Seen: Sendable {
        let names = Mutex<[[String]]>([])
    }
}
