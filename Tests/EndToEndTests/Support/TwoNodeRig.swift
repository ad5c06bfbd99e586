import Foundation
import Store
import TestSupport
import Testing

/// Two nodes of one account on a PostgreSQL database and a peer gateway on SQLite, set up as
/// OPERATIONS.md "Several nodes" says: `smsgw sim --modems 3`; node alpha on modem 1 and node beta
/// on modem 3, each with its own data directory, `[node] name` and `[[modem]]`, both on the same
/// `[store]`; bob (SQLite) on modem 2, paired with the account and knowing both nodes' numbers.
final class TwoNodeRig: @unchecked Sendable {
    // Every property is set once, in init; the simulator process is only touched there and in deinit.
    /// Alpha's, bob's and beta's numbers, as the simulator gives them to modems 1, 2 and 3.
    static let numbers = ["+15550001", "+15550002", "+15550003"]

    let root: URL
    /// The account's CLI as run on alpha's host (its data directory), and the same on beta's.
    let alpha: Peer
    let beta: Peer
    let bob: Peer
    let database: PostgresAddress
    private let databasePassword: String
    private let simulator: Process
    private let simDirectory: URL
    private let healthSeconds: Int

    /// Sets it all up; the nodes record a heartbeat (and read the outbox, their fallback) every
    /// `healthSeconds`, bob every 2 s. The nodes reach the database on `port` when given (a
    /// forwarder in front of the server), on the cluster's own port otherwise.
    init(root: URL, cluster: PostgresCluster, healthSeconds: Int = 2, port: Int? = nil) async throws {
        self.root = root
        let simDirectory = root.appendingPathComponent("sim")
        self.simDirectory = simDirectory
        self.healthSeconds = healthSeconds
        simulator = try SMSGWBinary.makeProcess(["sim", "--modems", "3", "--dir", simDirectory.path], environment: [:])
        simulator.standardOutput = FileHandle.nullDevice
        simulator.standardError = FileHandle.nullDevice
        try simulator.run()
        let socket = simDirectory.appendingPathComponent("control.sock").path
        try await GatewayRig.wait("the simulator's control socket", timeout: 20) { FileManager.default.fileExists(atPath: socket) }

        let setup = try cluster.storeEnvironment(in: root, port: port)
        database = setup.database
        let store = setup.environment
        databasePassword = cluster.password
        alpha = try Peer.create("alpha", in: root, storeEnvironment: store)
        beta = Peer(name: "beta", dataDir: root.appendingPathComponent("beta"), storeEnvironment: store)
        try FileManager.default.createDirectory(at: beta.dataDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        bob = try Peer.create("bob", in: root)

        let code = try Self.pairingCode(alpha.expect(["contact", "add", "bob", "--number", Self.numbers[1], "--json"]))
        let bobsCode = try Self.pairingCode(
            bob.expect(["contact", "add", "base", "--number", Self.numbers[0], "--number", Self.numbers[2], "--json"]))
        try alpha.expect(["contact", "pair", "bob", "--json"], input: bobsCode + "\n")
        try bob.expect(["contact", "pair", "base", "--json"], input: code + "\n")

        for (peer, modem) in [(alpha, 1), (bob, 2), (beta, 3)] {
            try writeConfiguration(of: peer, node: peer.name, modem: modem, healthSeconds: peer.name == "bob" ? 2 : healthSeconds)
        }
    }

    /// Writes `peer`'s configuration: node `node` on the simulator's modem `modem` (1 to 3), named after the peer.
    private func writeConfiguration(of peer: Peer, node: String, modem: Int, healthSeconds: Int) throws {
        // With a heartbeat every 2 s and 10 s modem calls, a lease of 2 × (2 + 10) = 24 s.
        let toml = """
            data_dir = "\(peer.dataDir.path)"
            log_level = "info"
            [intervals]
            poll_seconds = 1
            health_seconds = \(healthSeconds)
            retry_base_seconds = 1
            retry_max_seconds = 5
            resync_retry_seconds = 10
            ack_delay_seconds = 1
            ack_timeout_seconds = 6
            [node]
            name = "\(node)"
            [[modem]]
            name = "\(peer.name)-modem"
            gammurc = "\(simDirectory.path)/gammurc-\(modem)"
            call_timeout_seconds = 10
            """
        try Data(toml.utf8).write(to: configuration(of: peer))
    }

    /// Another host configured, by mistake, as `node`'s node too (the same `[node] name`), with its
    /// own data directory and the simulator's modem `modem`: a daemon that must not run beside it.
    func twin(of node: Peer, named name: String, modem: Int) throws -> Peer {
        let twin = Peer(name: name, dataDir: root.appendingPathComponent(name), storeEnvironment: node.storeEnvironment)
        try FileManager.default.createDirectory(at: twin.dataDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try writeConfiguration(of: twin, node: node.name, modem: modem, healthSeconds: healthSeconds)
        return twin
    }

    deinit {
        if simulator.isRunning {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
    }

    /// Sends a command to the simulated network (`smsgw sim ctl`: `drop 0.1`, `duplicate 0.05`, …).
    func control(_ words: String...) async throws {
        let arguments = ["sim", "ctl", "--dir", simDirectory.path] + words
        let result = try await offPool { try SMSGWBinary.run(arguments, environment: [:]) }
        #expect(result.status == 0 && result.stdout.hasPrefix("OK"), "sim ctl \(words): \(result.stdout) \(result.stderr)")
    }

    func configuration(of peer: Peer) -> URL { root.appendingPathComponent("\(peer.name).toml") }

    /// Starts `smsgw serve --config` for the peer (with `environment` added: `SMSGW_WEBHOOK_…`)
    /// and waits until it answers on its status socket.
    func start(_ peer: Peer, environment: [String: String] = [:]) async throws -> ServeProcess {
        let daemon = try ServeProcess(peer, ["--config", configuration(of: peer).path], in: root, environment: environment)
        try await offPool { try Self.blockingWait { try peer.run(["status", "--json"], removing: ["SMSGW_PASSPHRASE"]).status == 0 } }
        return daemon
    }

    /// The rows of `query` on the shared database, run with psql as an operator would look;
    /// one line per row, columns separated by `|`.
    func sql(_ query: String) async throws -> [String] {
        try await offPool { [self] in try sqlBlocking(query) }
    }

    /// ``sql(_:)``, blocking its thread: for a look that must be followed at once by an action
    /// (both off the pool, which a full run can starve for minutes).
    func sqlBlocking(_ query: String) throws -> [String] {
        let arguments = [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(database.port)", "-U", database.user,
            "-d", database.database, "-c", query,
        ]
        let result = try SMSGWBinary.run(
            arguments, environment: ["PGPASSWORD": databasePassword], program: URL(fileURLWithPath: "/usr/bin/psql"))
        #expect(result.status == 0, "psql \(query): \(result.stderr)")
        return result.lines
    }

    /// One number from `query` (a `count(*)` and the like).
    func count(_ query: String) async throws -> Int {
        Int(try await sql(query).first ?? "") ?? -1
    }

    /// Polls `condition` every `every` seconds, off the cooperative pool, until it holds.
    static func wait(
        _ what: String, timeout: TimeInterval, every: Double = 1, _ condition: @escaping @Sendable () async throws -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try await condition() { return }
            guard Date() < deadline else {
                Issue.record("Timed out after \(Int(timeout)) s waiting for \(what).")
                throw GatewayRig.TimedOut()
            }
            try await Task.sleep(for: .seconds(every))
        }
    }

    /// Waits, blocking its thread (run it off the pool), until `condition` holds, for at most 60 s.
    private static func blockingWait(_ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            guard Date() < deadline else { throw GatewayRig.TimedOut() }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    private static func pairingCode(_ result: RunResult) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["pairingCode"] as? String)
    }
}
