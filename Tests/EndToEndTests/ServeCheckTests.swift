import Foundation
import TestSupport
import Testing

/// `smsgw serve --check` through the binary: it validates and says what would run, opening no
/// modem and leaving the queue alone.
@Suite("serve --check", .blockingOffPool)
struct ServeCheckTests {
    @Test("a good configuration: each check ok, what serve would run, exit 0; the queue and the modem rows untouched")
    func goodConfiguration() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try ServiceTests.pairedWithNumbers(in: root)
            let id = try #require(Int64(try alice.expect(["send", "bob", "queued before the check"]).lines.first ?? ""))
            let pin = root.appendingPathComponent("pin-m1")
            try writeSecret("1234\n", to: pin)
            // /dev/null is a character device this user may open: the check never talks to it.
            let config = try Self.configuration(in: root, modems: [("m1", "/dev/null", pin.path)])

            let check = try alice.run(["serve", "--check", "--config", config.path])
            #expect(check.status == 0, "serve --check exited \(check.status): \(check.stdout) \(check.stderr)")
            #expect(
                check.lines.contains { $0.hasPrefix("ok      modem m1: device /dev/null") && $0.contains("PIN from \(pin.path)") },
                "\(check.stdout)")
            #expect(check.lines.contains("ok      passphrase: unlocks the account alice"), "\(check.stdout)")
            #expect(check.lines.contains("ok      daemon: not running"), "\(check.stdout)")
            #expect(
                check.lines.last?.hasPrefix("smsgw serve would drive 1 modem(s) (m1) on \(alice.dataDir.path)") == true, "\(check.stdout)")
            #expect(!check.stdout.contains("1234"), "the check printed the PIN")

            let status = try alice.status()
            #expect(status.modems.isEmpty, "the check wrote modem rows: \(status.modems)")
            #expect(status.outbox["queued"] == 1)
            let log = try alice.expect(["log", "--json"]).stdout
            #expect(log.contains("\"id\":\(id),") && log.contains("\"status\":\"queued\""))
        }
    }

    @Test(
        "problems: a missing device (69), an unreadable PIN file (78) and a wrong passphrase (77, its source named), each on its own line; the first one's status"
    )
    func problems() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let config = try Self.configuration(
                in: root,
                modems: [
                    ("m1", "/nonexistent/ttyUSB9", nil), ("m2", "/dev/null", root.appendingPathComponent("no-such-pin").path),
                ])
            let check = try alice.run(
                ["serve", "--check", "--config", config.path], environment: ["SMSGW_PASSPHRASE": "not the passphrase"])
            #expect(check.status == 69, "serve --check exited \(check.status): \(check.stderr)")
            #expect(
                check.lines.contains { $0.hasPrefix("PROBLEM modem m1:") && $0.contains("/nonexistent/ttyUSB9 does not exist") },
                "\(check.stdout)")
            #expect(check.lines.contains { $0.hasPrefix("PROBLEM modem m2:") && $0.contains("modem[2].pin_file") }, "\(check.stdout)")
            #expect(
                check.lines.contains { $0.hasPrefix("PROBLEM account and passphrase: The passphrase from SMSGW_PASSPHRASE is wrong") },
                "\(check.stdout)")
            #expect(check.stderr.contains("The check found 3 problem(s)"), "\(check.stderr)")
            // Nothing ran: no daemon left its lock held, no modem row was written.
            #expect(try alice.status().daemon?.running == false)

            let modemless = try Self.configuration(in: root, modems: [])
            #expect(try alice.run(["serve", "--check", "--config", modemless.path]).status == 69)

            // A data directory without a database: reported, and the check does not create one.
            let empty = Peer(name: "empty", dataDir: root.appendingPathComponent("empty"))
            try FileManager.default.createDirectory(
                at: empty.dataDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let good = try Self.configuration(in: root, modems: [("m1", "/dev/null", nil)])
            let none = try empty.run(["serve", "--check", "--config", good.path])
            #expect(none.status == 66 && none.stdout.contains("PROBLEM account: no database"), "\(none.stdout)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: empty.dataDir.path).isEmpty)
        }
    }

    @Test("serve and --check name the other commands' data directory when it has the store the configuration's lacks")
    func storeElsewhere() throws {
        try withTemporaryDirectory { root in
            // `smsgw init` as a person runs it: no --data-dir, so the default under XDG_DATA_HOME.
            let home = root.appendingPathComponent("xdg")
            let environment = ["XDG_DATA_HOME": home.path, "SMSGW_PASSPHRASE": Peer.passphrase]
            let minimal = ["--kdf-memory", "19", "--kdf-iterations", "2"]
            let created = try SMSGWBinary.run(
                ["init", "--username", "field"] + minimal, environment: environment, removing: ["SMSGW_DATA_DIR"])
            #expect(created.status == 0, "\(created.stderr)")
            let config = root.appendingPathComponent("laptop.toml")
            let elsewhere = root.appendingPathComponent("elsewhere").path
            try Data("data_dir = \"\(elsewhere)\"\n[[modem]]\nname = \"m1\"\ndevice = \"/dev/null\"\n".utf8).write(to: config)
            for arguments in [["serve", "--config", config.path], ["serve", "--check", "--config", config.path]] {
                let result = try SMSGWBinary.run(arguments, environment: environment, removing: ["SMSGW_DATA_DIR"])
                #expect(result.status == 66, "\(arguments) exited \(result.status): \(result.stderr)")
                #expect(result.stderr.contains("There is no store in \(elsewhere)"), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("`--data-dir '\(home.path)/smsgw'`"), "\(arguments): \(result.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: elsewhere), "serve created the data directory")
        }
    }

    /// A configuration file with the given modems (name, device, pin_file).
    static func configuration(in root: URL, modems: [(String, String, String?)]) throws -> URL {
        var toml = "log_level = \"info\"\n"
        for (name, device, pin) in modems {
            toml += "[[modem]]\nname = \"\(name)\"\ndevice = \"\(device)\"\n"
            if let pin { toml += "pin_file = \"\(pin)\"\n" }
        }
        let url = root.appendingPathComponent("check-\(UUID().uuidString.prefix(6)).toml")
        try Data(toml.utf8).write(to: url)
        return url
    }
}
