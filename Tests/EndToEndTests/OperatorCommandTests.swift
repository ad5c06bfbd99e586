import Foundation
import TestSupport
import Testing

/// `smsgw operator`: console operators managed from the command line, with passwords from stdin
/// (never argv), roles parsed before any prompt, and the last-admin rule.
@Suite("Operator commands", .serialized, .blockingOffPool)
struct OperatorCommandTests {
    @Test("add, list --json, role, passwd and remove, with the documented exit statuses")
    func lifecycle() throws {
        try withTemporaryDirectory { root in
            let base = try Peer.create("base", in: root)
            let added = try base.run(["operator", "add", "chief", "--role", "admin", "--json"], input: "a long admin password\n")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("\"role\":\"admin\"") && added.stdout.contains("\"lockedUntil\":null"), "\(added.stdout)")
            try base.expect(["operator", "add", "night shift", "--role", "viewer"], input: "another long password\n")

            let listed = try base.expect(["operator", "list", "--json"]).stdout
            // Plain: five fields each, none empty ("-" where there is no second factor or lock).
            let rows = try base.expect(["operator", "list"]).lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            #expect(rows.map(\.count) == [5, 5] && rows.allSatisfy { $0.allSatisfy { !$0.isEmpty } }, "\(rows)")
            let operators = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
            #expect(operators.map { $0["name"] as? String } == ["chief", "night shift"])
            #expect(!listed.contains("password"))

            // A role that does not exist is a usage error before anything is asked.
            let badRole = try base.run(["operator", "add", "x", "--role", "root"], input: "whatever password\n")
            #expect(badRole.status == 64 && badRole.stderr.contains("viewer"), "\(badRole.stderr)")
            // A short password is refused with what to do, and nothing is stored.
            let weak = try base.run(["operator", "add", "tiny", "--role", "viewer"], input: "short\n")
            #expect(weak.status == 65 && weak.stderr.contains("12 is the least"), "\(weak.stderr)")
            // A long one holding the name is told what to change: not its length.
            let named = try base.run(["operator", "add", "tiny", "--role", "viewer"], input: "tiny-password-123456\n")
            #expect(named.status == 65 && named.stderr.contains("choose one without it"), "\(named.stderr)")
            #expect(!named.stderr.contains("longer"), "\(named.stderr)")
            // Nothing piped in and no terminal: refused, not an empty password.
            let empty = try base.run(["operator", "passwd", "chief"], input: "")
            #expect(empty.status == 64 && empty.stderr.contains("password"), "\(empty.stderr)")

            let lastAdmin = try base.run(["operator", "role", "chief", "viewer"])
            #expect(lastAdmin.status == 65 && lastAdmin.stderr.contains("`smsgw operator role NAME admin`"), "\(lastAdmin.stderr)")
            #expect(try base.expect(["operator", "role", "night shift", "operator"]).stdout == "night shift is now an operator.\n")
            #expect(try base.expect(["operator", "role", "night shift", "viewer"]).stdout == "night shift is now a viewer.\n")
            #expect(try base.expect(["operator", "role", "night shift", "admin"]).stdout == "night shift is now an admin.\n")
            try base.expect(["operator", "passwd", "CHIEF"], input: "a changed admin password\n")
            try base.expect(["operator", "remove", "chief"])
            let gone = try base.run(["operator", "remove", "chief"])
            #expect(gone.status == 66 && gone.stderr.contains("`smsgw operator list`"), "\(gone.stderr)")

            // Every change is in the audit list, newest first, done from the command line.
            let audit = try base.expect(["audit", "--json"]).stdout
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(audit.utf8)) as? [[String: Any]])
            #expect(
                entries.map { $0["action"] as? String } == [
                    "operator-removed", "operator-password-changed", "operator-role-changed", "operator-role-changed",
                    "operator-role-changed", "operator-added", "operator-added",
                ], "\(audit)")
            #expect(entries.allSatisfy { $0["actor"] as? String == "command-line" })
            #expect(!audit.contains("password\"") && !audit.contains("a long admin password"))
            let plain = try base.expect(["audit", "--limit", "1"]).stdout
            #expect(plain.hasSuffix("\tcommand-line\toperator-removed\tchief\tdone\t-\n"), "\(plain)")
        }
    }

    @Test("Names that came from anyone are escaped on the terminal")
    func escapedNames() throws {
        try withTemporaryDirectory { root in
            let base = try Peer.create("base", in: root)
            let hostile = "evil\u{1B}[2J\u{202E}"
            let added = try base.run(["operator", "add", hostile, "--role", "viewer"], input: "a long viewer password\n")
            // The store refuses control characters in names; either way nothing raw reaches the terminal.
            #expect(!added.stdout.contains("\u{1B}") && !added.stderr.contains("\u{1B}"))
            let listed = try base.expect(["operator", "list"]).stdout
            #expect(!listed.contains("\u{1B}") && !listed.contains("\u{202E}"))
        }
    }
}
