import Foundation
import TestSupport
import Testing

/// `[backup]` as an operator sets it up: the daemon writes its backups by itself, status shows
/// them, and one restores into a fresh data directory after the daemon stopped.
@Suite("Automatic backups of smsgw serve")
struct AutomaticBackupTests {
    @Test("serve --sim with SMSGW_BACKUP_DIRECTORY writes a backup at start; status shows it, also after the stop; smsgw restore takes it")
    func aBackupAtStartRestores() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            try alice.expect(["contact", "add", "carol", "--number", "+15550009"])
            let directory = root.appendingPathComponent("backups")
            let daemon = try await ServeProcess.simulated(
                alice, in: root,
                environment: [
                    "SMSGW_BACKUP_DIRECTORY": directory.path, "SMSGW_BACKUP_KEEP": "3", "SMSGW_BACKUP_INTERVAL_SECONDS": "3600",
                ])

            var names: [String] = []
            try await GatewayRig.wait("the daemon's first backup", timeout: 60) {
                names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".sqlite") }
                return !names.isEmpty
            }
            let name = try #require(names.first)
            #expect(name.range(of: #"^smsgw-\d{8}-\d{6}\.sqlite$"#, options: .regularExpression) != nil, "\(name)")
            let file = directory.appendingPathComponent(name)
            #expect(try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o700)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)

            // From the running daemon, without the passphrase.
            let json = try alice.run(["status", "--json"], removing: ["SMSGW_PASSPHRASE"])
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let backup = try #require(object?["backup"] as? [String: Any], "\(json.stdout)")
            #expect(backup["lastFile"] as? String == file.path && backup["keep"] as? Int == 3, "\(backup)")
            #expect(backup["lastError"] is NSNull && backup["nextDueAt"] is String, "\(backup)")
            let plain = try alice.expect(["status"]).stdout
            let line = try #require(plain.split(separator: "\n").first { $0.hasPrefix("Backups: ") }, "\(plain)")
            #expect(line.contains(file.path) && line.contains("1 kept of 3"), "\(line)")
            // Relative, as the other lines of the report: "last 3 s ago FILE", "next in 59 min".
            #expect(line.range(of: #"^Backups: last \d+ (s|min) ago /"#, options: .regularExpression) != nil, "\(line)")
            #expect(line.range(of: #"; next in \d+ min($|;)"#, options: .regularExpression) != nil, "\(line)")

            try await daemon.stop()
            // With the daemon stopped, [backup] (here its environment) and the directory say it.
            let environment = ["SMSGW_BACKUP_DIRECTORY": directory.path, "SMSGW_BACKUP_KEEP": "3"]
            let offline = try alice.run(["status", "--json"], environment: environment)
            #expect(offline.status == 0, "\(offline.stderr)")
            let stopped = try JSONSerialization.jsonObject(with: Data(offline.stdout.utf8)) as? [String: Any]
            #expect((stopped?["daemon"] as? [String: Any])?["running"] as? Bool == false, "\(offline.stdout)")
            let kept = try #require(stopped?["backup"] as? [String: Any], "\(offline.stdout)")
            #expect(kept["lastFile"] as? String == file.path && kept["count"] as? Int == 1 && kept["keep"] as? Int == 3, "\(kept)")
            #expect(kept["lastSuccessAt"] is String && kept["nextDueAt"] is NSNull && kept["lastError"] is NSNull, "\(kept)")
            let offlinePlain = try alice.run(["status"], environment: environment).stdout
            let offlineLine = try #require(offlinePlain.split(separator: "\n").first { $0.hasPrefix("Backups: ") }, "\(offlinePlain)")
            #expect(
                offlineLine.contains(file.path) && offlineLine.contains("1 kept of 3") && !offlineLine.contains("next "), "\(offlineLine)")
            #expect(offlineLine.range(of: #"^Backups: last \d+ (s|min) ago /"#, options: .regularExpression) != nil, "\(offlineLine)")
            // Or its --config file.
            let configuration = root.appendingPathComponent("backups.toml")
            try Data("[backup]\ndirectory = \"\(directory.path)\"\n".utf8).write(to: configuration)
            let configured = try alice.expect(["status", "--config", configuration.path]).stdout
            #expect(configured.contains("Backups: last ") && configured.contains("1 kept of 7"), "\(configured)")
            // A configuration it cannot read is said before any passphrase is asked.
            let unreadable = try alice.run(["status", "--config", root.appendingPathComponent("missing.toml").path])
            #expect(unreadable.status == 78 && unreadable.stderr.contains("missing.toml"), "\(unreadable.stderr)")
            // Without [backup], as before.
            let off = try alice.expect(["status", "--json"]).stdout
            #expect(off.contains("\"backup\":null"), "\(off)")

            let fresh = try Peer.create("fresh", in: root)
            try fresh.expect(["restore", file.path])
            let contacts = try fresh.expect(["contact", "list"]).stdout
            #expect(contacts.contains("carol"), "\(contacts)")
        }
    }

    @Test("a backup directory inside the data directory is refused at start with a sentence naming the key")
    func insideTheDataDirectoryIsRefused() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let inside = alice.dataDir.appendingPathComponent("backups").path
            let serve = try ServeProcess(
                alice, ["--sim", "--sim-dir", root.appendingPathComponent("sim").path], in: root,
                environment: ["SMSGW_BACKUP_DIRECTORY": inside])
            let ended = try await GatewayRig.exit(of: serve.process, "serve to refuse the backup directory", timeout: 60)
            let log = serve.lines.joined(separator: "\n")
            #expect(ended.status == 78, "\(log)")
            #expect(log.contains("inside the data directory") && log.contains("backup.directory"), "\(log)")
            #expect(!FileManager.default.fileExists(atPath: inside))
        }
    }
}
