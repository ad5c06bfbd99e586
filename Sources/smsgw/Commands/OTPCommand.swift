import ArgumentParser
import Foundation
import OTP
import Store

/// `smsgw otp`: one-time passcode generators (HOTP and TOTP), kept encrypted in the store.
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
}

/// Turns ``OTPError``, which ErrorReport does not know, into a ``CLIError`` with status 65.
enum OTPFailure {
    /// The name, unless it is (in any spelling the store takes for it) the reserved login name,
    /// which only `smsgw account 2fa` manages; checked before unlocking, so a refused name costs
    /// no passphrase prompt and no two-factor code.
    static func userEntry(_ name: String) throws -> String {
        guard !LoginSecondFactor.isReserved(name) else {
            throw CLIError(
                "\"\(name)\" is reserved for two-factor login; manage it with `smsgw account 2fa`.", status: .usage)
        }
        return name
    }

    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as OTPError {
            throw CLIError(Self.sentence(error.message), status: .dataError)
        } catch let error as QRCodeError {
            throw CLIError(Self.sentence(error.message), status: .dataError)
        }
    }

    /// The OTP module's messages start in lower case and end without a full stop.
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        let capitalised = first.uppercased() + message.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }
}

/// The current Unix time.
func unixNow() -> Int64 { TOTP.unixTime(Date()) }

extension OTPAuthURI.Kind {
    /// "TOTP every 30 s" or "HOTP from counter 0".
    var summary: String {
        switch self {
        case .totp(let period): "TOTP every \(period) s"
        case .hotp(let counter): "HOTP from counter \(counter)"
        }
    }
}
