import ArgumentParser
import Foundation

/// `smsgw otp`: one-time passcode generators (HOTP and TOTP), kept encrypted in the store.
///
/// Every subcommand calls ``OTPEntries/requireUserName(_:)`` before unlocking, so the name
/// reserved for two-factor login costs no passphrase prompt and no code (exit 64).
struct OTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "otp",
        abstract: "Keep HOTP and TOTP generators: enrol, show codes, verify codes.",
        discussion: """
            Secrets and parameters are encrypted in the store; no command prints a secret except \
            `otp add --generate` (the enrolment URI, once) and `otp uri`. `otp verify` accepts a \
            TOTP code one step either side of now (an HOTP code up to 10 counters ahead), refuses a \
            code already used, and after repeated failures refuses attempts for a while; all of it \
            is saved in the same transaction as the check. Exit status of `otp verify`: 0 accepted, \
            65 wrong or already used, 77 too many failures (the message says when to retry).
            """,
        subcommands: [Add.self, List.self, Code.self, Verify.self, URI.self, Remove.self]
    )

    /// A `--at` Unix time as the operations take it.
    static func date(_ unixTime: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(unixTime))
    }
}
