import Foundation
import GRDB
import SplitMix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smsgw restore FILE` as an operator runs it: refusals that change nothing, and a restore on a
/// gateway that then runs again on the simulator.
@Suite("smsgw restore", .blockingOffPool)
struct RestoreTests {
    @Test("a file that is not a usable backup, a wrong passphrase or the store itself is refused, and nothing changes")
    func refusals() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            let database = alice.dataDir.appendingPathComponent("smsgw.sqlite")
            let before = try Snapshot(alice.dataDir, backup: backup)

            let text = root.appendingPathComponent("notes.txt")
            try Data("not a database\n".utf8).write(to: text)
            let foreign = root.appendingPathComponent("foreign.sqlite")
            try DatabaseQueue(path: foreign.path).write { db in try db.execute(sql: "CREATE TABLE notes (body TEXT)") }
            let corrupt = root.appendingPathComponent("corrupt.sqlite")
            var bytes = try Data(contentsOf: backup)
            // Page 1 stays (it still says SQLite); every page after it is overwritten.
            let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
            bytes.replaceSubrange(pageSize..<bytes.count, with: Data(repeating: 0x5A, count: bytes.count - pageSize))
            try bytes.write(to: corrupt)

            let future = root.appendingPathComponent("future.sqlite")
            try FileManager.default.copyItem(at: backup, to: future)
            try DatabaseQueue(path: future.path).write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-a-newer-smsgw')")
            }
            let futureBytes = try Data(contentsOf: future)

            let cases: [(file: URL, environment: [String: String], status: Int32, sentence: String)] = [
                (text, [:], 65, "is not a SQLite database"),
                (foreign, [:], 65, "not an smsgw store"),
                (corrupt, [:], 65, "restore another backup"),
                (future, [:], 78, "was written by a newer smsgw"),
                (database, [:], 65, "is the store itself"),
                (root.appendingPathComponent("missing.sqlite"), [:], 65, "is not a file"),
                (backup, ["SMSGW_PASSPHRASE": "not the passphrase"], 77, "SMSGW_PASSPHRASE does not open the backup \(backup.path);"),
            ]
            for refusal in cases {
                let result = try alice.run(["restore", refusal.file.path], environment: refusal.environment)
                #expect(result.status == refusal.status, "\(refusal.file.lastPathComponent): \(result.stderr)")
                #expect(result.stderr.contains(refusal.sentence), "\(refusal.file.lastPathComponent): \(result.stderr)")
                #expect(try Snapshot(alice.dataDir, backup: backup) == before, "\(refusal.file.lastPathComponent) changed a file")
            }
            #expect(try Data(contentsOf: future) == futureBytes, "the newer backup was migrated in place")
            // Each try opens a new copy of the backup, so no count of attempts left that never runs out.
            let tries = try (1...4).map { _ in try alice.run(["restore", backup.path], environment: ["SMSGW_PASSPHRASE": "wrong"]) }
            #expect(tries.allSatisfy { $0.status == 77 && !$0.stderr.contains("attempts") }, "\(tries.map(\.stderr))")
        }
    }

    @Test("a backup of an older smsgw is migrated on its copy; the file stays as it was")
    func olderBackup() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let older = root.appendingPathComponent("older.sqlite")
            try alice.expect(["backup", older.path])
            // The store as it was before its last two migrations (`v11-webhook-leases`, `v12-contact-keys-restored`).
            try DatabaseQueue(path: older.path).write { db in
                try db.execute(
                    sql: """
                        ALTER TABLE webhook_endpoints DROP COLUMN node; ALTER TABLE webhook_endpoints DROP COLUMN lease_until;
                        ALTER TABLE contacts DROP COLUMN keys_restored_at;
                        DELETE FROM grdb_migrations WHERE identifier IN ('v11-webhook-leases', 'v12-contact-keys-restored')
                        """)
            }
            let bytes = try Data(contentsOf: older)
            try alice.expect(["restore", older.path])
            #expect(try Data(contentsOf: older) == bytes, "the backup was migrated in place")
            let columns = { (path: String) in
                try DatabaseQueue(path: path).read { db in try db.columns(in: "webhook_endpoints").map(\.name) }
            }
            #expect(try columns(alice.dataDir.appendingPathComponent("smsgw.sqlite").path).contains("lease_until"))
            #expect(try !columns(older.path).contains("lease_until"))
            let contactColumns = try DatabaseQueue(path: alice.dataDir.appendingPathComponent("smsgw.sqlite").path).read { db in
                try db.columns(in: "contacts").map(\.name)
            }
            #expect(contactColumns.contains("keys_restored_at"))
            try alice.expect(["webhook", "list"])
        }
    }

    @Test(
        "a restore keeps the replaced store, continues the ids, holds the backup's outbox and marks contacts for a resync; the daemon blocks it"
    )
    func restoreOnARunningGateway() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            let (alice, bob) = (rig.alice, rig.bob)
            // Two texts queued while alice's daemon is stopped: the backup holds them unsent.
            let held = [try rig.send("held one", from: alice, to: bob), try rig.send("held two", from: alice, to: bob)]
            let backup = root.appendingPathComponent("alice-backup.sqlite")
            try alice.expect(["backup", backup.path])
            let backupBytes = try Data(contentsOf: backup)

            try await rig.startBoth()
            let later = try rig.send("after the backup", from: alice, to: bob)
            try await GatewayRig.wait("bob to decrypt alice's three texts", timeout: 90) {
                let opened = try rig.log(bob).filter { $0.direction == "in" && $0.status == "decrypted" }.compactMap(\.text)
                return ["held one", "held two", "after the backup"].allSatisfy(opened.contains)
            }
            let running = try alice.run(["restore", backup.path])
            #expect(running.status == 75 && running.stderr.contains("is running"), "\(running.stderr)")
            #expect(try rig.log(alice).contains { $0.id == later })
            // Killed, the daemon leaves its newest transactions in the -wal: the kept store must hold them too.
            try await rig.stopDaemon(alice, signal: SIGKILL)
            #expect(try rig.writeAheadLogSize(of: alice) > 0)

            let restored = try alice.expect(["restore", backup.path, "--json"])
            let outcome = try JSONDecoder().decode(Outcome.self, from: Data(restored.stdout.utf8))
            #expect(outcome.heldOutbox == 2 && outcome.resync == ["bob"] && outcome.contacts == 1, "\(restored.stdout)")
            #expect(try Data(contentsOf: backup) == backupBytes, "the backup file changed")

            // The replaced store is complete, private and named by the time of the restore.
            let replaced = URL(fileURLWithPath: outcome.replaced)
            #expect(replaced.lastPathComponent.hasPrefix("smsgw.sqlite.replaced-"))
            let mode = try FileManager.default.attributesOfItem(atPath: replaced.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let oldIDs = try Self.messageIDs(inDatabase: replaced.path)
            #expect(oldIDs.contains(later))
            let names = try FileManager.default.contentsOfDirectory(atPath: alice.dataDir.path)
            #expect(!names.contains { $0.hasPrefix(".smsgw.restore-") || $0 == "smsgw.sqlite-wal" }, "\(names)")

            // The backup's queued texts are failed with the reason, not sent; bob needs a resync.
            let log = try rig.log(alice)
            #expect(!log.contains { $0.id == later }, "the restored log holds a message from after the backup")
            for id in held {
                let row = try #require(log.first { $0.id == id })
                #expect(row.status == "failed" && row.error?.contains("restored backup") == true, "\(row.status) \(row.error ?? "")")
            }
            let contact = try #require(try rig.status(alice).contacts.first { $0.name == "bob" })
            #expect(contact.sync.state == "failing" && contact.sync.action == "resync", "\(contact.sync)")
            let listed = try alice.expect(["contact", "list"]).stdout
            #expect(listed.contains("failing"), "\(listed)")
            let retried = try alice.run(["log", "retry", String(held[0])])
            #expect(retried.status == 65 && retried.stderr.contains("have not been resynced since"), "\(retried.stderr)")

            // A text is refused until the resync; the handshake's id is above every id the replaced
            // store handed out; it goes out, and the held texts never do.
            try rig.startDaemon(alice)
            let refused = try alice.run(["send", "bob", "after the restore"])
            #expect(refused.status == 65 && refused.stderr.contains("have not been resynced since"), "\(refused.stderr)")
            let resync = try alice.expect(["resync", "bob"])
            let resyncID = try #require(Int64(resync.lines.first ?? ""))
            #expect(resyncID > (oldIDs.max() ?? 0), "message \(resyncID) reuses an id of the replaced store (up to \(oldIDs.max() ?? 0))")
            try await GatewayRig.wait("alice's resync handshake to be sent", timeout: 90) {
                try rig.status(alice).outbox["queued", default: 0] == 0
            }
            for id in held { #expect(try rig.log(alice).first { $0.id == id }?.status == "failed") }
            #expect(try !rig.log(alice).contains { $0.text == "after the restore" })
            try await rig.stopBoth()
        }
    }

    @Test("send is refused while the keys are restored, also while the resync the restore asks for is under way")
    func sendRefusedUntilTheResyncCompletes() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            let carried = try alice.expect(["restore", backup.path])
            #expect(!carried.stdout.contains("--restart"), "\(carried.stdout)")
            for stage in ["before the resync", "during the resync"] {
                if stage == "during the resync" { try alice.expect(["resync", "bob"]) }
                let sent = try alice.run(["send", "bob", stage])
                #expect(sent.status == 65 && sent.stdout.isEmpty, "\(stage): \(sent.status) \(sent.stdout)")
                #expect(sent.stderr.contains("were restored from a backup and have not been resynced since"), "\(sent.stderr)")
                #expect(sent.stderr.contains("nothing was encrypted or queued"), "\(sent.stderr)")
            }
            #expect(try alice.expect(["contact", "show", "bob", "--json"]).stdout.contains("\"state\":\"resync pending\""))
            let log = try alice.expect(["log", "--json"]).stdout
            #expect(!log.contains("before the resync") && !log.contains("during the resync"), "a refused text was logged")
        }
    }

    @Test("a replaced store that does not open with the backup's passphrase: the restore says each next resync goes far above")
    func replacedStoreWithAnotherPassphrase() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            let changed = try alice.run(
                ["account", "passwd"], environment: ["SMSGW_NEW_PASSPHRASE": "another passphrase for the replaced store"])
            #expect(changed.status == 0, "\(changed.stderr)")
            let restored = try alice.expect(["restore", backup.path])
            #expect(restored.stdout.contains("did not open with this passphrase"), "\(restored.stdout)")
            #expect(restored.stdout.contains("each contact's next resync starts 65536 epochs above the backup's"), "\(restored.stdout)")
            #expect(!restored.stdout.contains("--restart"), "\(restored.stdout)")
            let json = try alice.expect(["restore", backup.path, "--json"]).stdout
            #expect(json.contains("\"epochsCarried\":true"), "the restored store opens with its own passphrase: \(json)")
        }
    }

    @Test("kill -9 at random moments of restores: the store always opens and is the old one or the new one, never a mixture")
    func killDuringRestore() throws {
        try withTemporaryDirectory { root in
            let seed = UInt64.random(in: 0...UInt64.max)
            print("RestoreTests seed: \(seed)")
            var rng = SplitMix64(seed: seed)
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            // In the store, not in the backup: whether the log holds it says which store is in place.
            _ = try alice.encrypt(["after the backup"], for: bob)
            let marker = try #require(try Self.logIDs(alice).max())
            let database = alice.dataDir.appendingPathComponent("smsgw.sqlite")
            let original = root.appendingPathComponent("original.sqlite")
            try FileManager.default.copyItem(at: database, to: original)
            let putBack = {
                for name in ["smsgw.sqlite", "smsgw.sqlite-wal", "smsgw.sqlite-shm"] {
                    try? FileManager.default.removeItem(at: alice.dataDir.appendingPathComponent(name))
                }
                try FileManager.default.copyItem(at: original, to: database)
            }

            let started = Date()
            try alice.expect(["restore", backup.path])
            let span = UInt32(min(Date().timeIntervalSince(started), 5) * 1_000_000)
            var outcomes = (old: 0, new: 0)
            for iteration in 0..<12 {
                try putBack()
                let process = try SMSGWBinary.makeProcess(["restore", backup.path], environment: alice.environment)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                usleep(UInt32.random(in: 0...span, using: &rng))
                kill(process.processIdentifier, SIGKILL)
                _ = process.waitForExit()

                let verdict = try DatabaseQueue(path: database.path).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
                #expect(verdict == ["ok"], "iteration \(iteration): \(verdict)")
                if try Self.logIDs(alice).contains(marker) {
                    outcomes.old += 1
                } else {
                    outcomes.new += 1
                    let bobState = try alice.expect(["contact", "show", "bob", "--json"]).stdout
                    #expect(
                        bobState.contains("\"state\":\"failing\""),
                        "iteration \(iteration): a restored store without its marks: \(bobState)")
                }
            }
            print("RestoreTests: \(outcomes.old) killed restores left the old store, \(outcomes.new) the new one")
            try alice.expect(["restore", backup.path])
            #expect(try !Self.logIDs(alice).contains(marker))
            let names = try FileManager.default.contentsOfDirectory(atPath: alice.dataDir.path)
            #expect(!names.contains { $0.hasPrefix(".smsgw.restore-") }, "\(names)")
        }
    }

    /// The ids of the messages table of the SQLite database at `path`, read directly.
    static func messageIDs(inDatabase path: String) throws -> [Int64] {
        try DatabaseQueue(path: path).read { db in try Int64.fetchAll(db, sql: "SELECT id FROM messages") }
    }

    /// The ids of the peer's log.
    static func logIDs(_ peer: Peer) throws -> [Int64] {
        try peer.expect(["log", "--json", "--limit", "10000"]).lines.map { line in
            try JSONDecoder().decode(LoggedMessage.self, from: Data(line.utf8)).id
        }
    }

    /// The parts of `restore --json` the test reads.
    struct Outcome: Decodable {
        var replaced: String
        var contacts: Int
        var heldOutbox: Int
        var resync: [String]
    }

    /// The database files of a data directory and the backup, byte for byte, and the names of
    /// the directory's other entries (lock files aside, which any command may create), to
    /// compare before and after.
    struct Snapshot: Equatable {
        var files: [String: Data]
        var names: Set<String>

        init(_ directory: URL, backup: URL) throws {
            var files = ["backup": try Data(contentsOf: backup)]
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix(".lock") }
            for name in names where name.hasPrefix("smsgw.sqlite") {
                files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
            }
            self.files = files
            self.names = Set(names)
        }
    }
}
