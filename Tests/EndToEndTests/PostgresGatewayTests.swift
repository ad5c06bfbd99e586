import Foundation
import TestSupport
import Testing

/// A gateway whose store is a PostgreSQL database, set up as an operator would (`smsgw init`,
/// `[store]` from the environment, the password in a 0600 file), exchanging SMS with a gateway
/// on SQLite over the simulated network.
@Suite("A gateway on PostgreSQL", .serialized)
struct PostgresGatewayTests {
    @Test("init, serve --check and serve on PostgreSQL; texts go both ways with a gateway on SQLite")
    func exchangeAcrossBackends() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let (database, store) = try cluster.storeEnvironment(in: root)
            let rig = try await GatewayRig(root: root, aliceStore: store)

            let check = try rig.alice.run(["serve", "--check", "--config", rig.configuration(of: rig.alice).path])
            #expect(check.stdout.contains("ok      store: postgresql, postgresql://smsgw@127.0.0.1:\(database.port)/"), "\(check.stdout)")
            #expect(check.stdout.contains("; durable"), "\(check.stdout)")
            #expect(!check.stdout.contains(cluster.password) && !check.stderr.contains(cluster.password))

            try await rig.startBoth()
            try await rig.exchange("across backends")
            // The running daemon's status carries the server's notification queue, healthy; the SQLite node's has none.
            for (peer, postgres) in [(rig.alice, true), (rig.bob, false)] {
                let status = try JSONSerialization.jsonObject(with: Data(peer.expect(["status", "--json"]).stdout.utf8)) as? [String: Any]
                let usage = try #require(status?["notificationQueueUsage"], "the key is there on both backends")
                #expect(postgres ? (usage as? Double).map { $0 >= 0 && $0 < 0.005 } == true : usage is NSNull, "\(usage)")
            }
            try await rig.stopBoth()
            // Alice's data directory holds her node's locks, never a database.
            let files = try FileManager.default.contentsOfDirectory(atPath: rig.alice.dataDir.path)
            #expect(!files.contains { $0.hasPrefix("smsgw.sqlite") }, "\(files)")
            #expect(try rig.log(rig.alice).contains { $0.status == "decrypted" && $0.text == "across backends, to alice" })
            // The server's tools back a PostgreSQL store up; `smsgw backup` says so and writes nothing.
            let backup = try rig.alice.run(["backup", root.appendingPathComponent("copy.sqlite").path])
            #expect(backup.status != 0 && backup.stderr.contains("pg_dump"), "\(backup.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("copy.sqlite").path))
            // Nor can `smsgw restore` replace it: it refuses before reading the file, naming the server's tools.
            let restore = try rig.alice.run(["restore", root.appendingPathComponent("copy.sqlite").path])
            #expect(restore.status == 65 && restore.stderr.contains("pg_restore"), "\(restore.stderr)")
        }
    }

    /// A node's first `serve`, whose data directory does not exist yet, opens the store to create
    /// it with every command's checks, and closes it before opening the one it unlocks: none of
    /// the first one's connections remain beside the daemon's own.
    @Test("serve on a new data directory keeps one store open: the one it unlocks")
    func newDataDirectoryOpensOneStore() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let (database, store) = try cluster.storeEnvironment(in: root)
            let alice = try Peer.create("alice", in: root, storeEnvironment: store)
            // The passphrase comes through a FIFO: serve waits on it, past the lock step, with every
            // connection it has made so far still open.
            let fifo = root.appendingPathComponent("passphrase").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let node = root.appendingPathComponent("new-node").path
            // A modem from the environment (not `--sim`, whose configuration is the simulator's
            // SQLite one); the daemon stops at the passphrase, long before it opens the device.
            let environment = alice.environment.merging([
                "SMSGW_DATA_DIR": node, "SMSGW_PASSPHRASE_FILE": fifo, "SMSGW_MODEM_1_NAME": "one", "SMSGW_MODEM_1_DEVICE": "/dev/null",
            ]) { $1 }
            let serve = try SMSGWBinary.makeProcess(["serve"], environment: environment, removing: ["SMSGW_PASSPHRASE"])
            serve.standardOutput = FileHandle.nullDevice
            let log = root.appendingPathComponent("serve.log")
            #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
            serve.standardError = try FileHandle(forWritingTo: log)
            try serve.run()
            try await serve.stopping {
                var writer: Int32 = -1
                #expect(
                    await eventually {
                        writer = open(fifo, O_WRONLY | O_NONBLOCK)
                        return writer >= 0
                    })
                defer { close(writer) }
                let connections = try cluster.psql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database.database)' AND application_name LIKE '%(pid \(serve.processIdentifier))'"
                )
                #expect(connections == ["1"], "the lock step's store was left open")
            }
        }
    }
}
