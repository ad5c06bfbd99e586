import Foundation
import Store
import TestSupport
import Testing

/// `smsgw store migrate` as an operator runs it: a SQLite store moved to PostgreSQL and back,
/// the ratchet carrying on after each move.
@Suite("smsgw store migrate", .blockingOffPool)
struct StoreMigrateTests {
    @Test("SQLite → PostgreSQL → SQLite with the real binary: verified, refused into a non-empty target, usable after each move")
    func sqliteToPostgresAndBack() throws {
        let cluster = try requirePostgres()
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            #expect(try bob.decrypt(try alice.encrypt(["before the move"], for: bob), from: alice).status == 0)
            let database = try cluster.freshLoopbackAddress()
            let passwordFile = root.appendingPathComponent("database-password")
            #expect(
                FileManager.default.createFile(
                    atPath: passwordFile.path, contents: Data((cluster.password + "\n").utf8), attributes: [.posixPermissions: 0o600]))
            let url = "postgresql://\(database.user)@127.0.0.1:\(database.port)/\(database.database)"
            let connection = ["SMSGW_STORE_TLS": "disable", "SMSGW_STORE_PASSWORD_FILE": passwordFile.path]

            let there = try alice.run(["store", "migrate", "--to", url, "--json"], environment: connection)
            #expect(there.status == 0, "\(there.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(there.stdout.utf8)) as? [String: Any])
            let tables = try #require(report["tables"] as? [[String: Any]])
            #expect(tables.contains { $0["table"] as? String == "messages" && $0["targetRows"] as? Int == 1 })
            #expect(tables.allSatisfy { $0["sourceRows"] as? Int == $0["targetRows"] as? Int })
            #expect((report["decryption"] as? [String: Any])?["ratchetStates"] as? Int == 1)
            #expect(there.stderr.contains("messages: 1 of 1 row copied"), "\(there.stderr)")
            #expect(!there.stdout.contains(cluster.password) && !there.stderr.contains(cluster.password))

            // The old SQLite file stays in the data directory; a command run without the
            // configuration that names the new store is refused, and queues nothing.
            let stale = try alice.run(["send", "bob"], input: "into the old copy\n")
            #expect(stale.status == 78 && stale.stderr.contains("is an old copy"), "\(stale.stderr)")
            // What to set, by name: the commands other than serve find [store] only through it.
            #expect(stale.stderr.contains("in SMSGW_CONFIG"), "\(stale.stderr)")
            let record = alice.dataDir.appendingPathComponent(GatewayStore.movedMarkerFileName)
            // Run again into the copy, still equal to the source (as after a record that failed):
            // recognised, and the move recorded again.
            try FileManager.default.removeItem(at: record)
            let again = try alice.run(["store", "migrate", "--to", url], environment: connection)
            #expect(again.status == 0 && FileManager.default.fileExists(atPath: record.path), "\(again.stderr)")
            // A source changed since no longer equals the copy, which is then refused as not empty.
            try FileManager.default.removeItem(at: record)
            _ = try alice.expect(["contact", "edit", "bob", "--number", "+15550009"])
            let differs = try alice.run(["store", "migrate", "--to", url], environment: connection)
            #expect(differs.status != 0 && differs.stderr.contains("not empty"), "\(differs.stderr)")

            // Alice now runs on the copy: her log is there and her ratchet goes on.
            let onServer = Peer(
                name: "alice", dataDir: alice.dataDir,
                storeEnvironment: connection.merging(["SMSGW_STORE_BACKEND": "postgresql", "SMSGW_STORE_URL": url]) { $1 })
            #expect(try onServer.expect(["log"]).stdout.contains("before the move"))
            #expect(try bob.decrypt(try onServer.encrypt(["on the server"], for: bob), from: onServer).status == 0)
            _ = try onServer.expect(["contact", "edit", "bob", "--number", "+15550002"])
            let queued = try onServer.run(["send", "bob"], input: "queued on the server\n")
            #expect(queued.status == 0, "\(queued.stderr)")

            let home = root.appendingPathComponent("alice-home")
            let back = try onServer.run(["store", "migrate", "--to", "sqlite:\(home.path)"])
            #expect(back.status == 0, "\(back.stderr)")
            #expect(back.stdout.contains("Decrypted in the copy: 1 ratchet states"), "\(back.stdout)")
            let atHome = Peer(name: "alice", dataDir: home)
            let log = try atHome.expect(["log"]).stdout
            #expect(log.contains("on the server") && log.contains("queued on the server"), "\(log)")
            let result = try bob.decrypt(try atHome.encrypt(["back home"], for: bob), from: atHome)
            #expect(result.status == 0 && result.stdout.contains("back home"), "\(result.stdout)")
        }
    }

    /// An empty target of `kind` for a migration: its `--to` argument, the variables that reach
    /// it, and whether it is still untouched (no data directory database, no table).
    struct Target {
        let argument: String
        let environment: [String: String]
        let isUntouched: () throws -> Bool

        static func make(_ kind: StoreBackendKind, in root: URL) throws -> Target {
            guard kind == .postgresql else {
                let directory = root.appendingPathComponent("copy")
                return Target(argument: "sqlite:\(directory.path)", environment: [:]) {
                    !FileManager.default.fileExists(atPath: directory.appendingPathComponent("smsgw.sqlite").path)
                }
            }
            let cluster = try requirePostgres()
            // The variables that reach the database, without those that would make it the source.
            let (database, store) = try cluster.storeEnvironment(in: root)
            let url = try #require(store["SMSGW_STORE_URL"])
            let tables = [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(database.port)", "-U", database.user,
                "-d", database.database, "-c", "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()",
            ]
            return Target(argument: url, environment: store.filter { $0.key != "SMSGW_STORE_BACKEND" && $0.key != "SMSGW_STORE_URL" }) {
                let count = try SMSGWBinary.run(
                    tables, environment: ["PGPASSWORD": cluster.password], program: URL(fileURLWithPath: "/usr/bin/psql"))
                #expect(count.status == 0, "\(count.stderr)")
                return count.lines == ["0"]
            }
        }
    }

    @Test("A running daemon is reported (75) before the target is reached; the plain report counts 1 row, not 1 rows")
    func daemonBeforeTheTarget() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            // Nothing listens on port 1: reaching for the target first failed there (exit 69/78).
            let unreachable = ["store", "migrate", "--to", "postgresql://smsgw@127.0.0.1:1/smsgw"]
            let daemon = try #require(try DaemonLock.acquire(directory: alice.dataDir))
            let refused = try alice.run(unreachable, environment: ["SMSGW_STORE_TLS": "disable", "SMSGW_STORE_PASSWORD": "x"])
            #expect(refused.status == 75 && refused.stderr.contains("is running"), "\(refused.stderr)")
            daemon.release()

            let copied = try alice.run(["store", "migrate", "--to", "sqlite:" + root.appendingPathComponent("copy").path])
            #expect(copied.status == 0, "\(copied.stderr)")
            #expect(copied.lines.contains("account\t1 row\t1 copied"), "\(copied.stdout)")
            #expect(copied.stderr.contains("account: 1 of 1 row copied"), "\(copied.stderr)")
        }
    }

    @Test(
        "A wrong passphrase is refused as every command refuses it, before the target is touched",
        arguments: [StoreBackendKind.sqlite, .postgresql])
    func wrongPassphraseLeavesTheTargetUntouched(_ kind: StoreBackendKind) throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let target = try Target.make(kind, in: root)
            let wrong = target.environment.merging(["SMSGW_PASSPHRASE": "not the passphrase"]) { $1 }
            let refused = try alice.run(["store", "migrate", "--to", target.argument], environment: wrong)
            #expect(refused.status == 77, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("The passphrase from SMSGW_PASSPHRASE is wrong; correct it and try again"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(" copied"), "\(refused.stderr)")
            #expect(try target.isUntouched())
            // The same sentence as any other command's, the attempt counted against the same lockout.
            let other = try alice.run(["contact", "list"], environment: ["SMSGW_PASSPHRASE": "not the passphrase"])
            #expect(other.status == 77 && other.stderr.contains("The passphrase from SMSGW_PASSPHRASE is wrong"), "\(other.stderr)")

            let copied = try alice.run(["store", "migrate", "--to", target.argument], environment: target.environment)
            #expect(copied.status == 0, "\(copied.stderr)")
            #expect(try !target.isUntouched())
        }
    }

    @Test(
        "With two-factor login the code is asked before any copy: a missing or wrong code leaves the target untouched",
        arguments: [StoreBackendKind.sqlite, .postgresql])
    func codeBeforeTheCopy(_ kind: StoreBackendKind) throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            #expect(try bob.decrypt(try alice.encrypt(["before the move"], for: bob), from: alice).status == 0)
            // Each code is computed for the step after the current one, so that it is still in the
            // window when the unlock (an Argon2id hash, slow on a busy machine) checks it.
            let enabling = try TwoFactorTests().lastingCode()
            let enable = try alice.run(
                ["account", "2fa", "enable", "--secret", TwoFactorTests.secret], environment: ["SMSGW_TOTP_CODE": enabling.code])
            try #require(enable.status == 0, "\(enable.stderr)")
            let target = try Target.make(kind, in: root)
            let migrate = ["store", "migrate", "--to", target.argument, "--json"]

            let missing = try alice.run(migrate, environment: target.environment)
            #expect(missing.status == 77 && missing.stderr.contains("SMSGW_TOTP_CODE"), "\(missing.stderr)")
            #expect(try target.isUntouched())
            let wrong = try alice.run(migrate, environment: target.environment.merging(["SMSGW_TOTP_CODE": "000000"]) { $1 })
            #expect(wrong.status == 77 && wrong.stderr.contains("code is wrong"), "\(wrong.stderr)")
            #expect(!wrong.stderr.contains(" copied"), "\(wrong.stderr)")
            #expect(try target.isUntouched())

            // The right code: one unlock, then the copy, checked with the keys it unlocked.
            let code = try TwoFactorTests().lastingCode(newerThan: enabling.step).code
            let copied = try alice.run(migrate, environment: target.environment.merging(["SMSGW_TOTP_CODE": code]) { $1 })
            #expect(copied.status == 0, "\(copied.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(copied.stdout.utf8)) as? [String: Any])
            #expect((report["decryption"] as? [String: Any])?["logTexts"] as? Int == 1, "\(copied.stdout)")
            #expect(try !target.isUntouched())
        }
    }
}
