import Foundation
import Testing

/// `smsgw account 2fa`: a TOTP code after the passphrase on every unlock, checked against oathtool.
@Suite("Two-factor login", .serialized)
struct TwoFactorTests {
    static let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

    /// The TOTP code oathtool computes for `secret`, `steps` periods from now.
    func code(steps: Int = 0) throws -> String {
        let time = Int(Date().timeIntervalSince1970) + 30 * steps
        return try #require(OTPInteropTests.oathtool(["--totp", "-b", "--now=@\(time)", Self.secret]).first)
    }

    @Test func everyUnlockAsksForACodeAndWrongCodesCountTowardTheLockout() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let enable = try alice.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": code()])
            #expect(enable.status == 0, "\(enable.stderr)")
            #expect(enable.stdout.contains("otpauth://totp/smsgw:alice"))

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

            // Wrong codes lock the account like wrong passphrases.
            _ = try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": "000000"])
            let locked = try alice.run(["contact", "list"], environment: ["SMSGW_TOTP_CODE": "000001"])
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
            try #require(try bob.run(["account", "2fa", "enable", "--secret", Self.secret], environment: ["SMSGW_TOTP_CODE": code()]).status == 0)
            #expect(try bob.run(["account", "2fa", "disable"], environment: ["SMSGW_TOTP_CODE": code(steps: 1)]).status == 0)
            #expect(try bob.expect(["account", "2fa", "status"]).stdout.contains("off"))
            // The login secret's name is reserved: `smsgw otp` neither lists nor touches it.
            #expect(try bob.run(["otp", "code", "smsgw-login"]).status == 64)
            #expect(try bob.run(["otp", "add", "smsgw-login", "--generate"]).status == 64)
        }
    }
}
