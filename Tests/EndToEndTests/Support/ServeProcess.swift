import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One `smsgw serve` process of a peer, with its stderr in a file, as the service tests run it.
final class ServeProcess {
    let process: Process
    /// Where its stderr goes (the daemon's log lines).
    let log: URL
    /// Where its stdout goes (the addresses it serves on).
    let output: URL

    /// Starts `smsgw serve arguments…` (for example `--sim` or `--config FILE`) as `peer`.
    ///
    /// - Parameters:
    ///   - environment: Added to the peer's own; `removing` names variables to leave out.
    ///   - journal: Connect stderr as systemd connects it to journald: `JOURNAL_STREAM` names the
    ///     log file's device and inode.
    init(
        _ peer: Peer, _ arguments: [String], in root: URL, environment: [String: String] = [:], removing: [String] = [],
        journal: Bool = false
    ) throws {
        log = root.appendingPathComponent("\(peer.name)-serve-\(UUID().uuidString.prefix(6)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        output = log.appendingPathExtension("out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        var extra = environment
        if journal {
            var info = stat()
            guard stat(log.path, &info) == 0 else { throw ServeProcessError.noLogFile }
            extra["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        }
        process = try SMSGWBinary.makeProcess(
            ["serve"] + arguments, environment: peer.environment.merging(extra) { $1 }, removing: removing)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
    }

    /// Starts `smsgw serve --sim` for `peer` (its own simulated network in a new directory under
    /// `root`) and waits until it serves.
    static func simulated(_ peer: Peer, in root: URL, environment: [String: String] = [:]) async throws -> ServeProcess {
        let directory = root.appendingPathComponent("sim-\(peer.name)-\(UUID().uuidString.prefix(6))")
        let daemon = try ServeProcess(peer, ["--sim", "--sim-dir", directory.path], in: root, environment: environment)
        try await daemon.waitUntilServing(peer)
        return daemon
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: Int32 { process.processIdentifier }

    /// The log lines written so far.
    var lines: [String] {
        (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// Waits until the daemon answers `smsgw status` without a passphrase (its socket listens).
    func waitUntilServing(_ peer: Peer, timeout: TimeInterval = 60) async throws {
        try await GatewayRig.wait("\(peer.name)'s daemon to answer on its status socket", timeout: timeout) {
            guard process.isRunning else {
                Issue.record("The daemon exited \(process.terminationStatus): \(lines.suffix(5).joined(separator: "\n"))")
                throw ServeProcessError.exited
            }
            return try peer.run(["status", "--json"], removing: ["SMSGW_PASSPHRASE"]).status == 0
        }
    }

    /// Sends `signal` and returns the exit status (or the signal that ended it).
    @discardableResult
    func stop(signal number: Int32 = SIGTERM) async throws -> Int32 {
        kill(pid, number)
        return try await GatewayRig.exit(of: process, "the daemon to exit", timeout: 30).status
    }
}

enum ServeProcessError: Error {
    case noLogFile
    case exited
}

extension Peer {
    /// Runs a command as this peer with some of its variables left out (e.g. the passphrase).
    func run(_ arguments: [String], input: String = "", removing: [String], environment extra: [String: String] = [:]) throws -> RunResult {
        try SMSGWBinary.run(arguments, environment: environment.merging(extra) { $1 }, input: input, removing: removing)
    }

    /// `smsgw status --json` decoded, with the daemon's part.
    func status(removing: [String] = []) throws -> ServiceStatus {
        let result = try run(["status", "--json"], removing: removing)
        #expect(result.status == 0, "status exited \(result.status): \(result.stderr)")
        return try JSONDecoder().decode(ServiceStatus.self, from: Data(result.stdout.utf8))
    }
}

/// The parts of `smsgw status --json` the service tests read.
struct ServiceStatus: Decodable {
    struct Daemon: Decodable {
        var running: Bool
        var pid: Int32?
        var modems: [String]?
    }
    struct Modem: Decodable {
        var name: String
        var state: String
    }
    struct Contact: Decodable {
        var name: String
        var modem: String?
        var modemMissing: Bool
    }
    var daemon: Daemon?
    var modems: [Modem]
    var outbox: [String: Int]
    var contacts: [Contact]
}
