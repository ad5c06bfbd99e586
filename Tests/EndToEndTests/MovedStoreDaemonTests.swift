import Foundation
import TestSupport
import Testing

/// A running daemon whose store a migration elsewhere recorded as moved: it stops sending at its
/// next heartbeat and exits with the configuration status (78), as an open of the old copy is
/// refused.
@Suite("A daemon on a store that was moved")
struct MovedStoreDaemonTests {
    @Test("serve --sim on SQLite exits 78 at the heartbeat after the moved record appears, logging it once")
    func sqliteRecordAppears() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let record = alice.dataDir.appendingPathComponent("smsgw.sqlite.moved")
            #expect(
                FileManager.default.createFile(
                    atPath: record.path,
                    contents: Data("Copied to postgresql postgresql://db.example/smsgw at 2026-01-01T00:00:00Z.\n".utf8),
                    attributes: [.posixPermissions: 0o600]))
            try await Self.expectExit(daemon, naming: "postgresql://db.example/smsgw")
        }
    }

    /// `serve --sim` opens the store `[store]` names, as `serve` does: here a PostgreSQL database
    /// whose data directory holds no SQLite store at all.
    @Test("serve --sim runs on the PostgreSQL store [store] names, and exits 78 once store_moved holds a record")
    func postgresRecordAppears() async throws {
        let cluster = try requirePostgres()
        try await withTemporaryDirectory { root in
            let (database, store) = try cluster.storeEnvironment(in: root)
            let alice = try Peer.create("alice", in: root, storeEnvironment: store)
            let daemon = try await ServeProcess.simulated(alice, in: root)
            let files = try FileManager.default.contentsOfDirectory(atPath: alice.dataDir.path)
            #expect(!files.contains { $0.hasPrefix("smsgw.sqlite") }, "\(files)")
            _ = try cluster.psql(
                "INSERT INTO store_moved VALUES ('Copied to sqlite /srv/new/smsgw.sqlite at 2026-01-01T00:00:00Z.')",
                database: database.database)
            try await Self.expectExit(daemon, naming: "/srv/new/smsgw.sqlite")
        }
    }

    /// Waits for `daemon` to exit on its own; its status is 78 and its log says once why.
    private static func expectExit(_ daemon: ServeProcess, naming location: String) async throws {
        let ended = try await GatewayRig.exit(of: daemon.process, "the daemon to exit on the moved store", timeout: 120)
        #expect(ended.status == 78, "\(daemon.lines.suffix(5))")
        let said = daemon.lines.filter { $0.contains("The store was moved, so this node stops sending") }
        #expect(said.count == 1 && said[0].contains(location), "\(daemon.lines.suffix(5))")
    }
}
