import Foundation
import TestSupport
import Testing

/// Phone numbers, OTP algorithms and retention ages parse themselves as arguments: a malformed one is a usage
/// error (64) naming the option, before the store is unlocked.
@Suite("Argument types parse themselves", .blockingOffPool)
struct ArgumentTypeTests {
    @Test("A malformed --number, --algorithm or --older-than is a usage error naming the option; good ones work in any spelling")
    func malformedArguments() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let cases: [([String], String)] = [
                (["contact", "add", "bob", "--number", "07700 900123"], "--number"),
                (["contact", "add", "bob", "--number", "+447700900123", "--number", "+12"], "--number"),
                (["otp", "add", "bank", "--generate", "--algorithm", "md5"], "--algorithm"),
                (["log", "prune", "--older-than", "1.5"], "--older-than"),
            ]
            for (arguments, option) in cases {
                let result = try alice.run(arguments)
                #expect(result.status == 64, "\(arguments) exited \(result.status): \(result.stderr)")
                #expect(result.stderr.contains(option) && result.stderr.hasPrefix("smsgw: "), "\(arguments): \(result.stderr)")
            }
            #expect(try alice.run(["contact", "show", "bob"]).status == 66, "a refused contact was added")
            // A local number says what is wrong with it and what to type, not only "invalid".
            let local = try alice.run(["contact", "add", "bob", "--number", "07700 900123"])
            #expect(local.stderr.contains("has no country code; add the country code, e.g. +44"), "\(local.stderr)")
            // So does an age that is not a whole number of days.
            let age = try alice.run(["log", "prune", "--older-than", "1.5"])
            #expect(
                age.stderr.contains("'--older-than <days>': It takes a whole number of days, 0 or more, e.g. 30."), "\(age.stderr)")
            try alice.expect(["contact", "add", "bob", "--number", "+447700900123", "--number", "+447700900124"])
            let added = try alice.expect(["otp", "add", "bank", "--generate", "--algorithm", "SHA-256"])
            #expect(added.stdout.contains("algorithm=SHA256"), "\(added.stdout)")
        }
    }
}

/// A negative number after a numeric option is that option's value, refused for what it is, not
/// read as an option of its own ("Missing value for --period").
@Suite("Negative numbers as option values", .blockingOffPool)
struct NegativeOptionValueTests {
    @Test("`--period -30`, `--delay -1` and the other numeric options say what the value must be")
    func negativeValues() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let cases: [([String], String)] = [
                (
                    ["otp", "add", "bank", "--generate", "--period", "-30"],
                    "'--period <seconds>': It takes a whole number of seconds above 0"
                ),
                (
                    ["otp", "add", "bank", "--generate", "--hotp", "--counter", "-1"],
                    "'--counter <n>': It takes a whole number, 0 or more."
                ),
                (["otp", "add", "bank", "--generate", "--digits", "-6"], "--digits must be 6, 7 or 8."),
                (["sim", "--delay", "-1"], "'--delay <delay>': It takes seconds, never negative"),
                (["sim", "--drop", "-0.5"], "--drop is a probability between 0 and 1, not -0.5."),
                (["sim", "--capacity", "-1"], "--capacity must be at least 1."),
                (["sim", "--seed", "-1"], "'--seed <seed>': It takes a whole number, 0 or more."),
                (["init", "--username", "x", "--kdf-memory", "-1"], "'--kdf-memory <MiB>': It takes a whole number above 0."),
                (["audit", "--limit", "-5"], "--limit is 1 to 1000."),
                (["audit", "--before", "-5"], "--before is a line's id, a whole number above 0."),
                (["webhook", "deliveries", "--limit", "-5"], "--limit must be at least 1."),
                (["vault", "generate", "--count", "-2"], "--count must be 1 to 100."),
                (["vault", "generate", "--length", "-5"], "4 to 256 characters"),
                (["encrypt", "bob", "--max-parts", "-1"], "1 to 32 messages"),
                (["log", "--limit", "-5"], "--limit must be at least 1."),
                (["log", "--since", "-1"], "--since takes a `seq`"),
                (["log", "prune", "--older-than", "-5"], "It takes a whole number of days, 0 or more"),
            ]
            try alice.expect(["contact", "add", "bob"])
            for (arguments, sentence) in cases {
                let result = try alice.run(arguments, input: "hello\n")
                #expect(result.status == 64 || result.status == 65, "\(arguments) exited \(result.status): \(result.stderr)")
                #expect(result.stderr.contains(sentence) && !result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
            }
        }
    }
}

/// A contact name (OTP name, vault title) is typed in every command about it: one that starts with
/// a dash would be read as options (`-dash` as `-d -a -s -h`, the help), so no command naming it works.
@Suite("Contact names a command line can take", .blockingOffPool)
struct ContactNameTests {
    @Test("a contact name, OTP name or vault title starting with a dash is refused at add and rename (exit 65)")
    func leadingDash() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            for arguments in [["contact", "add", "--", "-dash"], ["contact", "add", "--", "  -dash"]] {
                let refused = try alice.run(arguments)
                #expect(refused.status == 65, "\(arguments) exited \(refused.status): \(refused.stderr)")
                #expect(refused.stderr.contains("smsgw: The contact name \"-dash\" starts with \"-\""), "\(refused.stderr)")
            }
            try alice.expect(["contact", "add", "bob"])
            let renamed = try alice.run(["contact", "edit", "bob", "--name=-bob"])
            #expect(renamed.status == 65, "\(renamed.stderr)")
            #expect(try alice.expect(["contact", "list"]).lines.map { $0.split(separator: "\t").first } == ["bob"])
            try alice.expect(["contact", "edit", "bob", "--name", "bob-2"])

            // OTP names and vault titles are typed the same way.
            let otp = try alice.run(["otp", "add", "--", "-work"], input: "JBSWY3DPEHPK3PXP\n")
            #expect(otp.status == 65 && otp.stderr.contains("starts with \"-\""), "\(otp.stderr)")
            let vault = try alice.run(["vault", "add", "--password-stdin", "--", "-site"], input: "a long enough password 42\n")
            #expect(vault.status == 65 && vault.stderr.contains("starts with \"-\""), "\(vault.stderr)")
            try alice.expect(["vault", "add", "site", "--password-stdin"], input: "a long enough password 42\n")
            let retitled = try alice.run(["vault", "edit", "site", "--new-title=-site"])
            #expect(retitled.status == 65, "\(retitled.stderr)")
            #expect(try alice.expect(["otp", "list"]).stdout.isEmpty)
            // An item without a TOTP secret names the command that adds one.
            let code = try alice.run(["vault", "code", "site"])
            #expect(code.status == 66 && code.stderr.contains("`smsgw vault edit site --totp -`"), "\(code.stderr)")
        }
    }
}

/// `sim --delay` and `otp add --period` parse themselves: a bad value is a usage error (64) naming
/// the option, before the simulator starts or the passphrase is asked for.
@Suite("Durations parse themselves", .blockingOffPool)
struct DurationArgumentTests {
    @Test("a negative or malformed delay, and a period that is not a positive number of seconds, exit 64")
    func durations() throws {
        for delay in ["-1", "3-1", "soon"] {
            let result = try SMSGWBinary.run(["sim", "--delay", delay], environment: [:])
            #expect(result.status == 64 && result.stderr.contains("--delay"), "--delay \(delay): \(result.status) \(result.stderr)")
            // What to give instead (a value starting with "-" is read as an option, before the value is parsed).
            if !delay.hasPrefix("-") { #expect(result.stderr.contains("It takes seconds, never negative"), "\(result.stderr)") }
        }
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            for period in ["0", "-30", "half"] {
                let result = try alice.run(["otp", "add", "bank", "--generate", "--period", period])
                #expect(result.status == 64 && result.stderr.contains("--period"), "--period \(period): \(result.status) \(result.stderr)")
                if !period.hasPrefix("-") {
                    #expect(result.stderr.contains("It takes a whole number of seconds above 0"), "\(result.stderr)")
                }
            }
        }
    }
}
