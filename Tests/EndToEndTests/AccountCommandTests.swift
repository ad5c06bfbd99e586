import Foundation
import TestSupport
import Testing

/// The account, OTP and backup commands on top of the application layer: its neutral errors
/// reach the terminal with the CLI's own hints and the documented exit statuses.
@Suite("Account and OTP commands", .serialized, .blockingOffPool)
struct AccountCommandTests {
    static let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    @Test("No store, a second account, no database: the status and the command that helps; only init creates a store")
    func accountHints() throws {
        try withTemporaryDirectory { root in
            // A command in a data directory without a store creates none: on a node whose store
            // is on PostgreSQL, run without the configuration, it made an empty second store.
            let empty = Peer(name: "nobody", dataDir: root.appendingPathComponent("empty"))
            try FileManager.default.createDirectory(
                at: empty.dataDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for arguments in [["contact", "list"], ["log"], ["status"]] {
                let none = try empty.run(arguments)
                #expect(none.status == 66, "\(arguments): \(none.stderr)")
                #expect(none.stderr.contains("There is no store in \(empty.dataDir.path)"), "\(none.stderr)")
                #expect(none.stderr.contains("create one with `smsgw init --username NAME`"), "\(none.stderr)")
                #expect(none.stderr.contains("if this node's store is on PostgreSQL, set SMSGW_CONFIG"), "\(none.stderr)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: empty.dataDir.path).isEmpty)
            let nowhere = Peer(name: "nowhere", dataDir: root.appendingPathComponent("nowhere"))
            #expect(try nowhere.run(["contact", "list"]).status == 66)
            #expect(!FileManager.default.fileExists(atPath: nowhere.dataDir.path))
            try empty.expect(["init", "--username", "nobody", "--kdf-memory", "19", "--kdf-iterations", "2"])
            #expect(try empty.expect(["contact", "list"]).status == 0)
            let backup = try Peer(name: "x", dataDir: root.appendingPathComponent("missing")).run([
                "backup", root.appendingPathComponent("copy").path,
            ])
            #expect(backup.status == 66 && backup.stderr.contains("check --data-dir (or SMSGW_DATA_DIR)"), "\(backup.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("missing").path))

            let alice = try Peer.create("alice", in: root)
            let again = try alice.run(["init", "--username", "again"])
            #expect(again.status == 65 && again.stderr.contains("choose another --data-dir"), "\(again.stderr)")
            #expect(try alice.expect(["account", "rename", " Alice  "]).stdout == "The account is now named \"Alice\".\n")
        }
    }

    @Test("otp: a time for an HOTP entry and a typed URI with parameters are usage errors naming the options")
    func otpUsage() throws {
        try withTemporaryDirectory { root in
            let peer = try Peer.create("otp", in: root)
            try peer.expect(["otp", "add", "counter", "--hotp"], input: Self.rfcSecret + "\n")
            let timed = try peer.run(["otp", "code", "counter", "--at", "59"])
            #expect(timed.status == 64 && timed.stderr.contains("leave out --at"), "\(timed.stderr)")
            #expect(try peer.expect(["otp", "code", "counter"]).stdout == "755224\n")

            let typed = try peer.run(["otp", "add", "typed", "--digits", "8"], input: "otpauth://totp/x?secret=\(Self.rfcSecret)\n")
            #expect(typed.status == 64 && typed.stderr.contains("leave out --algorithm"), "\(typed.stderr)")
            let bad = try peer.run(["otp", "add", "bad"], input: "GEZ1\n")
            #expect(bad.status == 65 && bad.stderr.contains("Invalid Base32"), "\(bad.stderr)")
        }
    }

    @Test("otp list --json has every key in every entry, null where it does not apply")
    func otpListKeepsNulls() throws {
        try withTemporaryDirectory { root in
            let peer = try Peer.create("otp", in: root)
            try peer.expect(["otp", "add", "time"], input: Self.rfcSecret + "\n")
            try peer.expect(["otp", "add", "count", "--hotp", "--issuer", "ACME"], input: Self.rfcSecret + "\n")
            let listed = try peer.expect(["otp", "list", "--json"]).stdout
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
            let keys: Set = ["name", "type", "algorithm", "digits", "period", "counter", "issuer", "account", "createdAt"]
            #expect(entries.map { Set($0.keys) } == [keys, keys], "\(listed)")
            #expect(listed.contains("\"counter\":null") && listed.contains("\"period\":null") && listed.contains("\"issuer\":null"))
        }
    }

    @Test("2fa enable while it is on: 65, the command that turns it off, and nothing shown")
    func twoFactorTwice() throws {
        try withTemporaryDirectory { root in
            let carol = try Peer.create("carol", in: root)
            let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
            func code(_ steps: Int) throws -> String {
                let time = Int(Date().timeIntervalSince1970) + 30 * steps
                return try #require(OTPInteropTests.oathtool(["--totp", "-b", "--now=@\(time)", secret]).first)
            }
            try #require(
                try carol.run(["account", "2fa", "enable", "--secret", secret], environment: ["SMSGW_TOTP_CODE": code(0)]).status == 0)
            let twice = try carol.run(["account", "2fa", "enable"], environment: ["SMSGW_TOTP_CODE": code(1)])
            #expect(twice.status == 65 && twice.stderr.contains("`smsgw account 2fa disable`"), "\(twice.stderr)")
            #expect(!twice.stdout.contains("otpauth://"))
        }
    }
}
