import Foundation
import TestSupport
import Testing

/// `smsgw store migrate` as an operator runs it: a SQLite store moved to PostgreSQL and back,
/// the ratchet carrying on after each move.
@Suite("smsgw store migrate")
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
            #expect(there.stderr.contains("messages: 1 of 1 rows copied"), "\(there.stderr)")
            #expect(!there.stdout.contains(cluster.password) && !there.stderr.contains(cluster.password))

            let again = try alice.run(["store", "migrate", "--to", url], environment: connection)
            #expect(again.status != 0 && again.stderr.contains("not empty"), "\(again.stderr)")

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
}
