import Foundation
import TestSupport
import Testing

/// One tool: global options anywhere, one way errors start, one contact shape in every JSON.
@Suite("The command line is one tool", .blockingOffPool)
struct CommandLineTests {
    @Test("--data-dir and --verbose work before or after the command; each help lists them once; --config where the file is read")
    func globalOptionsAreGlobal() throws {
        try withTemporaryDirectory { root in
            let first = root.appendingPathComponent("first")
            let second = root.appendingPathComponent("second")
            let environment = ["SMSGW_PASSPHRASE": Peer.passphrase]
            let minimal = ["--kdf-memory", "19", "--kdf-iterations", "2"]
            let before = try SMSGWBinary.run(["--data-dir", first.path, "init", "--username", "a"] + minimal, environment: environment)
            #expect(before.status == 0, "\(before.stderr)")
            #expect(before.stdout.contains(first.path))
            let after = try SMSGWBinary.run(["init", "--username", "b", "--data-dir", second.path] + minimal, environment: environment)
            #expect(after.status == 0, "\(after.stderr)")
            for directory in [first, second] {
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("smsgw.sqlite").path))
            }
            let verbose = try SMSGWBinary.run(["--verbose", "contact", "--data-dir", first.path, "list"], environment: environment)
            #expect(verbose.status == 0, "\(verbose.stderr)")
            #expect(verbose.stdout.contains("No contacts yet"))

            let commands = [
                [], ["init"], ["contact", "pair"], ["serve"], ["backup"], ["restore"], ["log", "prune"], ["store", "migrate"],
                ["api", "token", "create"], ["api", "token", "list"], ["api", "token", "revoke"], ["webhook", "list"],
                ["webhook", "deliveries"], ["webhook", "redeliver"],
            ]
            for command in commands {
                let arguments = command + ["--help"]
                let help = try SMSGWBinary.run(arguments, environment: [:])
                #expect(help.status == 0)
                // The lines that describe an option start with its name.
                let entries = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(entries.filter { $0.hasPrefix("--data-dir <dir>") }.count == 1, "\(arguments): \(help.stdout)")
                #expect(entries.filter { $0.hasPrefix("--verbose ") }.count == 1, "\(arguments)")
                let readsConfiguration = command == ["serve"] || command == ["webhook", "list"]
                #expect(entries.contains { $0.hasPrefix("--config <file>") } == readsConfiguration, "\(arguments) and --config")
                // Under "Global options", never among the command's own.
                let global = try #require(entries.firstIndex(of: "GLOBAL OPTIONS:"), "\(arguments): \(help.stdout)")
                let dataDir = try #require(entries.firstIndex { $0.hasPrefix("--data-dir <dir>") })
                #expect(!entries[global..<dataDir].contains("OPTIONS:"), "\(arguments): \(help.stdout)")
            }
        }
    }

    @Test("The exit statuses in `smsgw --help` fit its width: a status's second line is indented too")
    func exitStatusesFit() throws {
        let help = try SMSGWBinary.run(["--help"], environment: [:]).stdout
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Exit status (sysexits.h):"))
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("USAGE:") })
        for line in lines[(start + 1)..<end] where !line.isEmpty {
            #expect(line.hasPrefix("  "), "a wrapped line: \(line)")
        }
    }

    @Test("Every error line starts `smsgw: `, argument-parser's too, with the documented exit codes")
    func errorsStartTheSameWay() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let cases: [([String], Int32)] = [
                (["init"], 64),  // a missing option
                (["contact", "frobnicate"], 64),  // an unknown command
                (["log", "--no-such-option"], 64),
                (["log", "--limit", "0"], 64),  // our own validation
                (["contact", "show", "nobody"], 66),
                (["init", "--username", "again"], 65),
                (["sim", "ctl", "--dir", root.appendingPathComponent("no-simulator").path, "status"], 69),
            ]
            for (arguments, status) in cases {
                let result = try alice.run(arguments)
                #expect(result.status == status, "\(arguments) exited \(result.status): \(result.stderr)")
                let lines = result.stderr.split(separator: "\n")
                #expect(!lines.isEmpty, "\(arguments) printed no error")
                for line in lines { #expect(line.hasPrefix("smsgw: "), "\(arguments): \(line)") }
            }
            let usage = try alice.run(["contact", "pair"])
            #expect(usage.stderr.contains("smsgw: see `smsgw contact pair --help`."), "\(usage.stderr)")
        }
    }

    /// `status --config node.toml` reads the node that `serve --config node.toml` runs; it read
    /// only the file's `[backup]` and looked in the default data directory.
    @Test("status --config FILE reads the store of the file's data_dir; --data-dir still wins")
    func statusReadsTheConfiguredNode() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            try alice.expect(["contact", "add", "bob", "--number", "+447700900123"])
            let file = root.appendingPathComponent("node.toml")
            try Data("data_dir = \"\(alice.dataDir.path)\"\n".utf8).write(to: file)
            let elsewhere = root.appendingPathComponent("elsewhere")
            let configured = try SMSGWBinary.run(
                ["status", "--config", file.path], environment: alice.environment.merging(["HOME": elsewhere.path]) { $1 },
                removing: ["SMSGW_DATA_DIR", "XDG_DATA_HOME"])
            #expect(configured.status == 0 && configured.stdout.contains("bob: +447700900123"), "\(configured.stderr)")
            let overridden = try alice.run(["status", "--config", file.path, "--data-dir", elsewhere.path])
            #expect(overridden.status == 66, "--data-dir names an empty directory: \(overridden.stderr)")
        }
    }

    /// `log` parses its listing's options wherever they stand, so a subcommand's line could carry
    /// them: they were taken and ignored (`log prune --json` printed plain text).
    @Test("The listing's options on a log subcommand's line are refused, naming them; log show keeps --json")
    func listingOptionsOnSubcommands() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let prune = try alice.run(["log", "prune", "--older-than", "30", "--json"])
            #expect(prune.status == 64 && prune.stderr.contains("`smsgw log prune` takes no --json"), "\(prune.stderr)")
            let retry = try alice.run(["log", "--state", "failed", "--limit", "5", "retry", "3"])
            #expect(retry.status == 64 && retry.stderr.contains("takes no --state, --limit: those options"), "\(retry.stderr)")
            #expect(try alice.run(["log", "checked", "--all", "--follow"]).status == 64)
            let show = try alice.run(["log", "show", "1", "--json"])
            #expect(show.status == 66, "show honours --json and reaches the store: \(show.stderr)")
            #expect(try alice.run(["log", "prune", "--older-than", "30"]).status == 0)
        }
    }

    @Test("api token list is tab-separated like every other list: name, scopes, created, expires, last used")
    func tokenListIsTabSeparated() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            try alice.expect(["api", "token", "create", "reader", "--scope", "send,read", "--expires", "90d"])
            try alice.expect(["api", "token", "create", "scraper", "--scope", "metrics"])
            let rows = try alice.expect(["api", "token", "list"]).lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            try #require(rows.map(\.count) == [5, 5], "\(rows)")
            #expect(rows.map { $0.first } == ["reader", "scraper"] && rows.map { $0[1] } == ["send,read", "metrics"], "\(rows)")
            #expect(rows[0][3] != "never" && rows[1][3] == "never" && rows.allSatisfy { $0[4] == "never" }, "\(rows)")
        }
    }

    @Test("contact list, contact show and status print one contact shape with the documented keys")
    func oneContactShape() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "add", "carol", "--number", "+447700900777"])
            func object(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
            let listed = try #require(try object(alice.expect(["contact", "list", "--json"]).stdout) as? [[String: Any]])
            let shown = try #require(try object(alice.expect(["contact", "show", "bob", "--json"]).stdout) as? [String: Any])
            let status = try #require(try object(alice.expect(["status", "--json"]).stdout) as? [String: Any])
            let inStatus = try #require(status["contacts"] as? [[String: Any]])
            let keys: Set = [
                "name", "number", "numbers", "modem", "modemMissing", "pairing", "rePairing", "epoch", "sendPosition", "receivePosition",
                "sync", "lastResync", "quarantined", "lastSentAt", "lastReceivedAt", "protocol", "acks", "lastAcknowledgedAt",
            ]
            for contact in listed + inStatus + [shown] {
                #expect(Set(contact.keys) == keys, "\(contact.keys.sorted())")
                #expect(
                    Set((contact["sync"] as? [String: Any])?.keys ?? [:].keys) == [
                        "state", "consecutiveFailures", "advice", "action", "resyncCode", "keysRestoredAt",
                    ])
            }
            let bob = try #require(listed.first { $0["name"] as? String == "bob" })
            #expect(bob["pairing"] as? String == "paired" && bob["number"] is NSNull && bob["modem"] is NSNull)
            let carol = try #require(inStatus.first { $0["name"] as? String == "carol" })
            #expect(carol["pairing"] as? String == "pending" && carol["epoch"] is NSNull)
            #expect(carol["numbers"] as? [String] == ["+447700900777"])
            #expect(status["queue"] is [Any])
        }
    }

    @Test("A pairing code typed in groups with spaces (several arguments) or other dashes is accepted")
    func pairingCodeSeparators() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let bob = try Peer.create("bob", in: root)
            let aliceCode = try alice.add(bob)
            let bobCode = try bob.add(alice)
            // As read aloud and typed: five words, lower case.
            let words = bobCode.lowercased().split(separator: "-").map(String.init)
            let typed = try alice.run(["contact", "pair", "bob"] + words + ["--json"])
            #expect(typed.status == 0, "\(typed.stderr)")
            #expect(typed.stderr.contains("smsgw: warning: the pairing code was given on the command line"))
            // Pasted from a word processor: en dashes and a no-break space.
            let pasted = aliceCode.replacingOccurrences(of: "-", with: " \u{2013}\u{00A0}")
            let result = try bob.run(["contact", "pair", "alice", "--json"], input: pasted + "\n")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            let safety = { (r: RunResult) in
                (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: String])?["safetyCode"]
            }
            #expect(safety(typed) != nil && safety(typed) == safety(result))
        }
    }

    @Test("--transliterate is suggested only when it would replace a character; its errors name what it could not replace")
    func transliterateErrors() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            let plain = try alice.run(["encrypt", "bob"], input: "“snow” ☃ man\n")
            #expect(plain.status == 65)
            #expect(plain.stderr.contains("use --transliterate"))
            // A snowman has no replacement: the flag would not help, so it is not suggested.
            let hopeless = try alice.run(["encrypt", "bob"], input: "snow ☃ man\n")
            #expect(hopeless.status == 65)
            #expect(hopeless.stderr.contains("no replacement") && !hopeless.stderr.contains("use --transliterate"), "\(hopeless.stderr)")
            let given = try alice.run(["encrypt", "bob", "--transliterate"], input: "“snow” ☃ man\n")
            #expect(given.status == 65)
            #expect(given.stderr.contains("☃") && given.stderr.contains("no replacement"), "\(given.stderr)")
            #expect(!given.stderr.contains("use --transliterate"), "\(given.stderr)")
            // What it replaced is named as the error names characters; a quote is not put in quotes.
            let quoted = try alice.run(["encrypt", "bob", "--transliterate"], input: "It’s\u{00A0}“ok”\n")
            #expect(quoted.status == 0, "\(quoted.stderr)")
            #expect(
                quoted.stderr
                    == "smsgw: transliterated ’ (U+2019) → ' at position 3; U+00A0 → a space at position 5; “ (U+201C) → \" at position 6; ” (U+201D) → \" at position 9.\n",
                "\(quoted.stderr)")
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            let sent = try alice.run(["send", "bob", "--transliterate", "--lines"], input: "ok “quoted”\n☃\n")
            #expect(sent.status == 65)
            #expect(sent.stderr.contains("smsgw: line 2:") && !sent.stderr.contains("use --transliterate"), "\(sent.stderr)")

            // A text over the default 8 parts names the --max-parts that fits it, and that works.
            let long = String(repeating: "x", count: 1500) + "\n"
            let tooLong = try alice.run(["encrypt", "bob"], input: long)
            #expect(tooLong.status == 65 && tooLong.stderr.contains("`--max-parts 12`"), "\(tooLong.stderr)")
            #expect(try alice.expect(["encrypt", "bob", "--max-parts", "12"], input: long).lines.count == 12)
        }
    }
}
