import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A simulated network (`smsgw sim`), two paired peers (and, when asked, a third, carol, paired
/// with bob) and their `smsgw serve` daemons, each driving one simulated modem through a gammurc,
/// as an operator would set them up.
final class GatewayRig {
    static let numbers = ["+15550001", "+15550002", "+15550003"]

    let root: URL
    let simDirectory: URL
    let alice: Peer
    let bob: Peer
    /// Paired with bob only; nil unless the rig was made `withCarol`.
    let carol: Peer?
    private let simulator: Process
    private var daemons: [String: Process] = [:]
    private var starts = 0

    /// Starts the network, creates and pairs alice (+15550001) and bob (+15550002), and with
    /// `withCarol` carol (+15550003, paired with bob), and writes their configs. Alice's store is
    /// where `aliceStore` (`SMSGW_STORE_*` variables) says, SQLite in her data directory by default.
    init(root: URL, withCarol: Bool = false, aliceStore: [String: String] = [:]) async throws {
        self.root = root
        simDirectory = root.appendingPathComponent("sim")
        simulator = try SMSGWBinary.makeProcess(
            ["sim", "--modems", withCarol ? "3" : "2", "--dir", simDirectory.path], environment: [:])
        simulator.standardOutput = FileHandle.nullDevice
        simulator.standardError = FileHandle.nullDevice
        try simulator.run()
        let socket = simDirectory.appendingPathComponent("control.sock").path
        try await Self.wait("the simulator's control socket", timeout: 20) { FileManager.default.fileExists(atPath: socket) }

        alice = try Peer.create("alice", in: root, storeEnvironment: aliceStore)
        bob = try Peer.create("bob", in: root)
        let aliceCode = try Self.pairingCode(alice.expect(["contact", "add", "bob", "--number", Self.numbers[1], "--json"]))
        let bobCode = try Self.pairingCode(bob.expect(["contact", "add", "alice", "--number", Self.numbers[0], "--json"]))
        _ = try alice.pair(bob, code: bobCode)
        _ = try bob.pair(alice, code: aliceCode)
        carol = withCarol ? try Peer.create("carol", in: root) : nil
        if let carol {
            let bobsCode = try Self.pairingCode(bob.expect(["contact", "add", "carol", "--number", Self.numbers[2], "--json"]))
            let carolsCode = try Self.pairingCode(carol.expect(["contact", "add", "bob", "--number", Self.numbers[1], "--json"]))
            _ = try bob.pair(carol, code: carolsCode)
            _ = try carol.pair(bob, code: bobsCode)
        }
        for (index, peer) in ([alice, bob] + (carol.map { [$0] } ?? [])).enumerated() {
            let toml = """
                data_dir = "\(peer.dataDir.path)"
                log_level = "info"
                [intervals]
                poll_seconds = 1
                health_seconds = 5
                retry_base_seconds = 1
                retry_max_seconds = 5
                resync_retry_seconds = 10
                [[modem]]
                name = "\(peer.name)-modem"
                gammurc = "\(simDirectory.path)/gammurc-\(index + 1)"
                """
            try Data(toml.utf8).write(to: configuration(of: peer))
        }
    }

    deinit {
        for process in daemons.values where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        if simulator.isRunning {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
    }

    func configuration(of peer: Peer) -> URL { root.appendingPathComponent("\(peer.name).toml") }

    /// Starts `smsgw serve --config` for the peer, with `environment` added to its own; its stderr
    /// goes to ROOT/NAME-serve-N.log.
    func startDaemon(_ peer: Peer, environment extra: [String: String] = [:]) throws {
        starts += 1
        let log = root.appendingPathComponent("\(peer.name)-serve-\(starts).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try SMSGWBinary.makeProcess(
            ["serve", "--config", configuration(of: peer).path], environment: peer.environment.merging(extra) { $1 })
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        daemons[peer.name] = process
    }

    /// The process id of the peer's running daemon, if one runs.
    func daemonProcessID(_ peer: Peer) -> Int32? {
        daemons[peer.name].map(\.processIdentifier)
    }

    /// Sends SIGTERM (or SIGKILL) to the peer's daemon and returns its exit status.
    ///
    /// The wait is bounded by systemd's stop timeout (90 s), which the daemon's stop is made to end
    /// well within: a graceful stop finishes the SMS it is sending and waits up to 10 s for the
    /// store, all at the pace of a machine that may be running a dozen other processes. Unlike
    /// ``wait(_:timeout:_:)``, the bound does not stretch with the test's own starvation: the
    /// waiting thread is not the pool's.
    @discardableResult
    func stopDaemon(_ peer: Peer, signal number: Int32 = SIGTERM) async throws -> Int32 {
        let process = try #require(daemons[peer.name])
        kill(process.processIdentifier, number)
        let ended = try await Self.exit(of: process, "\(peer.name)'s daemon to exit", timeout: 90)
        daemons[peer.name] = nil
        return ended.status
    }

    /// Waits at most `timeout` seconds for `process` to end, off the cooperative pool and without
    /// Foundation's monitor thread (``Process/exit()``); how it ended. Records `what` on a time-out.
    static func exit(of process: Process, _ what: String, timeout: TimeInterval) async throws -> ChildExit {
        guard let ended = await process.exit(within: .seconds(timeout)) else {
            Issue.record("Timed out after \(Int(timeout)) s waiting for \(what).")
            throw TimedOut()
        }
        return ended
    }

    /// The database and its side files in a data directory (docs/STORAGE.md).
    static let databaseFiles = ["smsgw.sqlite", "smsgw.sqlite-wal", "smsgw.sqlite-shm"]

    /// Copies the peer's database files into `backup`, as an operator backs up a stopped gateway.
    ///
    /// The peer's daemon must not be running: a plain copy is consistent only while no process
    /// has the database open.
    func backUpStore(of peer: Peer, to backup: URL) throws {
        try #require(daemons[peer.name] == nil, "\(peer.name)'s daemon runs; stop it before copying the store")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        for name in Self.databaseFiles {
            let file = peer.dataDir.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            try FileManager.default.copyItem(at: file, to: backup.appendingPathComponent(name))
        }
    }

    /// Puts the files saved by ``backUpStore(of:to:)`` back, rewinding every key state since.
    ///
    /// Side files the backup lacks are removed: a killed process can leave a `-wal` behind, and
    /// SQLite must not apply it to the older database. The peer's daemon must not be running.
    func restoreStore(of peer: Peer, from backup: URL) throws {
        try #require(daemons[peer.name] == nil, "\(peer.name)'s daemon runs; stop it before restoring the store")
        for name in Self.databaseFiles {
            let file = peer.dataDir.appendingPathComponent(name)
            let saved = backup.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            if FileManager.default.fileExists(atPath: saved.path) { try FileManager.default.copyItem(at: saved, to: file) }
        }
    }

    /// Bytes in the peer's `-wal` file (0 when there is none): a cleanly stopped daemon leaves
    /// everything in the database file itself.
    func writeAheadLogSize(of peer: Peer) throws -> Int {
        let file = peer.dataDir.appendingPathComponent("smsgw.sqlite-wal")
        guard FileManager.default.fileExists(atPath: file.path) else { return 0 }
        return (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    }

    /// Starts both daemons and waits until each reports a ready modem.
    func startBoth() async throws {
        try startDaemon(alice)
        try startDaemon(bob)
        for peer in [alice, bob] {
            // A daemon's start on a machine busy with a full run has taken over a minute.
            try await Self.wait("\(peer.name)'s modem to be ready", timeout: 180) { try self.status(peer).modemReady }
        }
    }

    /// Runs `smsgw sim ctl --dir DIR words…`; it must answer OK.
    func control(_ words: String...) throws {
        let result = try SMSGWBinary.run(["sim", "ctl", "--dir", simDirectory.path] + words, environment: [:])
        #expect(result.status == 0 && result.stdout.hasPrefix("OK"), "sim ctl \(words): \(result.stdout) \(result.stderr)")
    }

    /// Queues `text` to `other` with `smsgw send`; returns the message id it printed.
    @discardableResult
    func send(_ text: String, from peer: Peer, to other: Peer) throws -> Int64 {
        let result = try peer.expect(["send", other.name, text])
        return try #require(Int64(result.lines.first ?? ""), "send printed \(result.stdout)")
    }

    /// Sends one text each way and waits until each side has decrypted the other's.
    func exchange(_ label: String, timeout: TimeInterval = 90) async throws {
        let toBob = "\(label), to bob"
        let toAlice = "\(label), to alice"
        try send(toBob, from: alice, to: bob)
        try send(toAlice, from: bob, to: alice)
        try await Self.wait("\(label): a message each way", timeout: timeout) {
            try self.log(self.bob).contains { $0.status == "decrypted" && $0.text == toBob }
                && self.log(self.alice).contains { $0.status == "decrypted" && $0.text == toAlice }
        }
    }

    /// Stops both daemons with SIGTERM and expects each to exit 0 (a clean shutdown).
    func stopBoth(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for peer in [alice, bob] {
            let status = try await stopDaemon(peer)
            #expect(status == 0, "\(peer.name)'s daemon exited \(status)", sourceLocation: sourceLocation)
        }
    }

    /// Queues each text with one `smsgw send --lines`; returns the message ids in order.
    @discardableResult
    func send(lines texts: [String], from peer: Peer, to other: Peer) throws -> [Int64] {
        let result = try peer.expect(["send", other.name, "--lines"], input: texts.map { $0 + "\n" }.joined())
        let ids = result.lines.compactMap { Int64($0) }
        #expect(ids.count == texts.count, "send --lines printed \(result.stdout)")
        return ids
    }

    /// The peer's whole log, from `smsgw log --json`.
    func log(_ peer: Peer) throws -> [LoggedMessage] {
        let result = try peer.expect(["log", "--json", "--limit", "10000"])
        return try result.lines.map { try JSONDecoder().decode(LoggedMessage.self, from: Data($0.utf8)) }
    }

    /// The peer's `smsgw status --json`.
    func status(_ peer: Peer) throws -> StatusReport {
        let result = try peer.expect(["status", "--json"])
        return try JSONDecoder().decode(StatusReport.self, from: Data(result.stdout.utf8))
    }

    /// Polls `condition` every half second until it holds; records an issue and throws after `timeout`.
    ///
    /// It sleeps with `Task.sleep`, so a long wait leaves the test process's few cooperative
    /// threads to the other suites (the in-process gateways of GatewayTests run on them).
    ///
    /// As TestSupport's `eventually`, time this task did not get to run does not count: a sleep
    /// that ends much later than asked (a full run on two cores stalls the machine at times for
    /// minutes) moves the deadline by its overshoot, up to five times `timeout` in all.
    static func wait(_ what: String, timeout: TimeInterval, _ condition: () throws -> Bool) async throws {
        let start = Date()
        var deadline = start.addingTimeInterval(timeout)
        let limit = start.addingTimeInterval(timeout * 5)
        let interval = 0.5
        // The condition is looked at once more after the deadline: a busy machine may have kept
        // this task from running for a while.
        while true {
            if try condition() { return }
            if Date() >= deadline { break }
            let asleep = Date()
            try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            let overshoot = Date().timeIntervalSince(asleep) - interval
            if overshoot > interval { deadline = min(deadline.addingTimeInterval(overshoot), limit) }
        }
        Issue.record("Timed out after \(Int(timeout)) s waiting for \(what).")
        throw TimedOut()
    }

    struct TimedOut: Error {}

    private static func pairingCode(_ result: RunResult) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["pairingCode"] as? String)
    }
}

/// One line of `smsgw log --json`.
struct LoggedMessage: Decodable {
    var id: Int64
    var direction: String
    var contact: String?
    var status: String
    var text: String?
    var ciphertext: String?
    var error: String?
}

/// The parts of `smsgw status --json` the tests read.
struct StatusReport: Decodable {
    struct Modem: Decodable {
        var name: String
        var state: String
        var connected: Bool
    }
    struct Contact: Decodable {
        struct Sync: Decodable {
            var state: String
            var advice: String?
            var action: String?
            var resyncCode: String?
        }
        struct LastResync: Decodable {
            var epoch: UInt32
            var completedAt: String?
        }
        var name: String
        var epoch: UInt32?
        var sync: Sync
        var lastResync: LastResync?
        var quarantined: Int
    }
    var modems: [Modem]
    var outbox: [String: Int]
    var contacts: [Contact]

    var modemReady: Bool { modems.contains { $0.state == "ready" && $0.connected } }
}
