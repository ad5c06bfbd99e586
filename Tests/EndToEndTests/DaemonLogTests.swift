import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's log lines as journald and a terminal get them.
@Suite("Daemon log lines", .serialized)
struct DaemonLogTests {
    @Test(
        "under systemd (JOURNAL_STREAM names stderr) every line starts with its syslog priority and has no timestamp; elsewhere lines carry one"
    )
    func journalFormat() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            for journal in [true, false] {
                let daemon = try ServeProcess(
                    alice, ["--sim", "--sim-dir", root.appendingPathComponent("sim-\(journal)").path], in: root, journal: journal)
                try await daemon.waitUntilServing(alice)
                #expect(try await daemon.stop() == 0)
                let lines = daemon.lines
                #expect(lines.count >= 2, "\(lines)")
                if journal {
                    // The start-up line says what runs where: an operator checking an upgrade or a move reads it.
                    let start = lines.first { $0.hasPrefix("<5>Gateway starting. smsgw.count=1 ") } ?? ""
                    for fact in ["smsgw.data-dir=\(alice.dataDir.path)", "smsgw.node=", "smsgw.store=", "sqlite", "smsgw.version="] {
                        #expect(start.contains(fact), "\(fact): \(lines)")
                    }
                    #expect(lines.allSatisfy { $0.range(of: #"^<[0-7]>"#, options: .regularExpression) != nil }, "\(lines)")
                    #expect(!lines.contains { $0.range(of: #"^<[0-7]>\d{4}-\d\d-\d\dT"#, options: .regularExpression) != nil })
                } else {
                    #expect(
                        lines.allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"#, options: .regularExpression) != nil },
                        "\(lines)")
                    #expect(lines.contains { $0.hasSuffix("[Gateway] Gateway starting.") })
                }
            }
        }
    }

    @Test("under systemd the error that ends the daemon is logged at priority err, naming the passphrase's source")
    func fatalErrorAsError() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let daemon = try ServeProcess(
                alice, ["--sim", "--sim-dir", root.appendingPathComponent("sim").path], in: root,
                environment: ["SMSGW_PASSPHRASE": "a stale passphrase"], journal: true)
            #expect(try await GatewayRig.exit(of: daemon.process, "the daemon to exit", timeout: 30).status == 77)
            #expect(daemon.lines.contains { $0.hasPrefix("<3>smsgw: The passphrase from SMSGW_PASSPHRASE is wrong") }, "\(daemon.lines)")
        }
    }

    @Test("the store logs through the daemon's logger: at the configuration's log_level, in the journal's form")
    func storeLogsAtTheDaemonsLevel() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            // The store warns about this directory when it opens it.
            #expect(chmod(alice.dataDir.path, 0o755) == 0)
            for level in ["debug", "error"] {
                let config = root.appendingPathComponent("\(level).toml")
                try Data("log_level = \"\(level)\"\n[[modem]]\nname = \"gone\"\ndevice = \"/nonexistent/ttyUSB9\"\n".utf8).write(to: config)
                let daemon = try ServeProcess(alice, ["--config", config.path], in: root, journal: true)
                try await daemon.waitUntilServing(alice)
                #expect(try await daemon.stop() == 0)
                let lines = daemon.lines
                let opened = lines.contains { $0.hasPrefix("<7>Opened the gateway database. smsgw.store.path=") }
                let readable = lines.contains { $0.hasPrefix("<4>The data directory ") && $0.contains("readable by other users") }
                #expect(opened == (level == "debug"), "\(level): \(lines)")
                #expect(readable == (level == "debug"), "\(level): \(lines)")
            }
        }
    }

    @Test("smsgw sim logs its events as serve does: under systemd each line starts with its priority")
    func simulatorLogsAsServeDoes() async throws {
        try await withTemporaryDirectory { root in
            let log = root.appendingPathComponent("sim.log")
            let output = root.appendingPathComponent("sim.out")
            for file in [log, output] { #expect(FileManager.default.createFile(atPath: file.path, contents: nil)) }
            var info = stat()
            #expect(stat(log.path, &info) == 0)
            let sim = try SMSGWBinary.makeProcess(
                ["sim", "--modems", "1", "--dir", root.appendingPathComponent("sim").path],
                environment: ["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino)"])
            sim.standardOutput = try FileHandle(forWritingTo: output)
            sim.standardError = try FileHandle(forWritingTo: log)
            try sim.run()
            let started = await eventually(timeout: .seconds(30)) {
                ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("Press Ctrl-C")
            }
            #expect(started)
            sim.interrupt()
            _ = await sim.exit()
            let lines = (try String(contentsOf: log, encoding: .utf8)).split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("<6>simulated network started smsgw.sim.directory=") }, "\(lines)")
            #expect(lines.allSatisfy { $0.range(of: #"^<[0-7]>"#, options: .regularExpression) != nil }, "\(lines)")
        }
    }

    @Test("a missing device is logged at once, and a failing open once, not as an error and a warning at every retry")
    func modemProblemsLoggedOnce() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let config = try ServeCheckTests.configuration(
                in: root, modems: [("gone", "/nonexistent/ttyUSB9", nil), ("null", "/dev/null", nil)])
            let daemon = try ServeProcess(alice, ["--config", config.path], in: root, journal: true)
            try await GatewayRig.wait("the missing device to be logged", timeout: 10) {
                daemon.lines.contains { $0.hasPrefix("<4>Waiting for the modem's device.") && $0.contains("smsgw.modem=gone") }
            }
            // /dev/null opens as a file but is no serial port: gammu fails and the daemon retries
            // after 1, 2 and 4 s. Each failure is the same one, so it is worth one line.
            try await Task.sleep(for: .seconds(8))
            #expect(try await daemon.stop() == 0)
            let lines = daemon.lines
            let waiting = lines.filter { $0.contains("Waiting for the modem's device.") }
            let failed = lines.filter { $0.contains("smsgw.modem=null") && $0.lowercased().contains("connection failed") }
            #expect(waiting.count == 1, "\(waiting)")
            #expect(failed.count == 1 && failed.first?.hasPrefix("<4>") == true, "\(failed)")
            #expect(!lines.contains { $0.hasPrefix("<3>") }, "an error line for a retried open: \(lines)")
        }
    }
}
