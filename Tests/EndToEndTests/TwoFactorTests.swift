import Foundation
import TestSupport
import Testing

/// `smsgw account 2fa`: a TOTP code after the passphrase on every unlock, checked against oathtool.
@Suite("Two-factor login", .serialized, .blockingOffPool)
struct TwoFactorTests {
    static let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

    /// The TOTP code oathtool computes for `secret`, `steps` periods from now.
    func code(steps: Int = 0) throws -> String {
        let time = Int(Date().timeIntervalSince1970) + 30 * steps
        return try #require(OTPInteropTests.oathtool(["--totp", "-b", "--now=@\(time)", Self.secret]).first)
    }

    /// A code for a slow command: the next step's, which the ±1 step window takes from now until
    /// two steps on (60 to 90 s, where the current step's may lapse at once), and newer than the
    /// step `spent` of a code already used. When the next step is spent too, this waits until the
    /// one after it comes into the window: at most one step.
    func lastingCode(newerThan spent: Int? = nil) throws -> (code: String, step: Int) {
        func current() -> Int { Int(Date().timeIntervalSince1970) / 30 }
        let step = max(current() + 1, (spent ?? 0) + 1)
        while current() < step - 1 { Thread.sleep(forTimeInterval: 0.1) }
        return (try #require(OTPInteropTests.oathtool(["--totp", "-b", "--now=@\(step * 30)", Self.secret]).first), step)
    }

    @Test func everyUnlockAsksForACodeAndWrongCodesCountTowardTheLockout() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let first = try code()
            let enable = try alice.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": first])
            #expect(enable.status == 0, "\(enable.stderr)")
            #expect(enable.stdout.contains("otpauth://totp/smsgw:alice"))
            #expect(enable.stdout.contains("The code just entered is used up: the next unlock needs the next code"), "\(enable.stdout)")

            // The enable's code again at once, more often than the lockout allows failures: refused
            // as used, and not counted, as it comes with the right passphrase.
            for _ in 0..<4 {
                let again = try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": first])
                #expect(again.status == 77 && again.stderr.contains("already used"), "\(again.stderr)")
                #expect(again.stderr.contains("not counted") && !again.stderr.contains("locked"), "\(again.stderr)")
            }

            // Without a code (and no terminal) the unlock stops with 77 and says what to set.
            let missing = try alice.run(["contact", "list"])
            #expect(missing.status == 77)
            #expect(missing.stderr.contains("SMSGW_TOTP_CODE"))

            // The next step's code works once (codes at or before the last accepted step never do);
            // the same code again is refused.
            let next = try code(steps: 1)
            #expect(try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": next]).status == 0)
            let replay = try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": next])
            #expect(replay.status == 77)
            #expect(replay.stderr.contains("already used") && !replay.stderr.contains("passphrase"), "\(replay.stderr)")

            // Wrong codes have their own sentence and lock the account like wrong passphrases.
            let wrong = try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": "000000"])
            #expect(wrong.status == 77)
            #expect(wrong.stderr.contains("code is wrong") && !wrong.stderr.contains("passphrase"), "\(wrong.stderr)")
            #expect(try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": "000001"]).status == 77)
            let locked = try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": "000002"])
            #expect(locked.status == 77)
            #expect(locked.stderr.contains("locked"))
        }
    }

    @Test func enablingNeedsTheCurrentCodeAndDisablingTurnsItOff() throws {
        try withTemporaryDirectory { root in
            let bob = try Peer.create("bob", in: root)
            let refused = try bob.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": "123456"])
            #expect(refused.status == 65)
            #expect(try bob.expect(["account", "2fa", "status"]).stdout.contains("off"))
            // With no terminal and no SMSGW_TOTP_CODE the first code cannot be asked for: the new
            // secret is not shown in vain, and the sentence says the login stays off, not that it is on.
            let unasked = try bob.run(["account", "2fa", "enable"])
            #expect(unasked.status == 77 && !unasked.stdout.contains("otpauth://"), "\(unasked)")
            #expect(unasked.stderr.contains("stays off") && unasked.stderr.contains("SMSGW_TOTP_CODE"), "\(unasked.stderr)")
            try #require(
                try bob.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": code()]).status == 0)
            #expect(try bob.run(["account", "2fa", "disable"], environment: ["SMSGW_TOTP_CODE": code(steps: 1)]).status == 0)
            #expect(try bob.expect(["account", "2fa", "status"]).stdout.contains("off"))
            // The login secret's name is reserved: `smsgw otp` neither lists nor touches it.
            #expect(try bob.run(["otp", "code", "smsgw-login"]).status == 64)
            #expect(try bob.run(["otp", "add", "smsgw-login", "--generate"]).status == 64)
        }
    }

    @Test func noSpellingOfTheReservedNameReachesTheLoginSecret() throws {
        try withTemporaryDirectory { root in
            let carol = try Peer.create("carol", in: root)
            try #require(
                try carol.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": code()]).status == 0)
            let current = try code(steps: 1)
            for name in [" SMSGW-Login", "Smsgw-login ", "ＳＭＳＧＷ－ＬＯＧＩＮ"] {
                for command in [
                    ["add", name, "--generate"], ["code", name], ["verify", name, "123456"], ["uri", name], ["remove", name],
                ] {
                    let result = try carol.run(["otp"] + command, environment: ["SMSGW_TOTP_CODE": current])
                    #expect(result.status == 64, "otp \(command.joined(separator: " ")) exited \(result.status): \(result.stderr)")
                    #expect(result.stderr.contains("reserved for two-factor login"))
                }
            }
            // Two-factor login is untouched: still on, with the same secret.
            let status = try carol.run(["account", "2fa", "status"], environment: ["SMSGW_TOTP_CODE": current])
            #expect(status.status == 0 && status.stdout.contains("on"))
        }
    }

    @Test func theCodeIsAskedWhetherOrNotThePassphraseIsRight() throws {
        try withTemporaryDirectory { root in
            let dave = try Peer.create("dave", in: root)
            try #require(
                try dave.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": code()]).status == 0)
            // A wrong passphrase and no code: the code is asked for (here: its variable) before
            // anything says whether the passphrase was right.
            let unasked = try dave.run(["contact", "list"], environment: ["SMSGW_PASSPHRASE": "not the passphrase"])
            #expect(unasked.status == 77)
            #expect(unasked.stderr.contains("SMSGW_TOTP_CODE") && !unasked.stderr.contains("is wrong"), "\(unasked.stderr)")
            // With a code, a wrong passphrase is reported as such.
            let wrong = try dave.run(
                ["contact", "list"], environment: ["SMSGW_PASSPHRASE": "not the passphrase", "SMSGW_TOTP_CODE": code(steps: 1)])
            #expect(wrong.status == 77 && wrong.stderr.contains("The passphrase from SMSGW_PASSPHRASE is wrong"), "\(wrong.stderr)")
        }
    }

    @Test func deletingTheSecondFactorFromACopyOfTheDatabaseDoesNotSwitchItOff() throws {
        try withTemporaryDirectory { root in
            let erin = try Peer.create("erin", in: root)
            try #require(
                try erin.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": code()]).status == 0)
            // An attacker who knows the passphrase but not the code edits a copy of the files.
            let copy = Peer(name: "erin", dataDir: root.appendingPathComponent("copy"))
            try FileManager.default.copyItem(at: erin.dataDir, to: copy.dataDir)
            try DatabaseTampering.clearTwoFactor(in: copy.dataDir)
            let result = try copy.run(["contact", "list"])
            #expect(result.status != 0, "the copy unlocked without a code: \(result.stdout)")
            #expect(try copy.run(["account", "2fa", "status"]).status != 0)
        }
    }

    @Test func noLockIsHeldWhileAPersonTypesTheCode() async throws {
        try await withTemporaryDirectory { root in
            let frank = try Peer.create("frank", in: root)
            try #require(
                try frank.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": code()]).status == 0)
            // One smsgw waits at the code prompt on a terminal (script(1) gives it one)…
            let prompt = try BackgroundSMSGW.start(["contact", "list"], environment: frank.environment, onTerminal: true)
            defer { prompt.stop() }
            try await prompt.waitForOutput(containing: "Authentication code", timeout: 120)
            // …while another unlocks: it must not wait for the first to finish typing.
            let other = try BackgroundSMSGW.start(
                ["contact", "list"], environment: frank.environment.merging(["SMSGW_TOTP_CODE": code(steps: 1)]) { $1 })
            let status = try await other.waitForExit(timeout: 120)
            #expect(status == 0, "the second unlock waited on the first one's prompt: \(status == nil ? "still running" : other.text)")
        }
    }
}
