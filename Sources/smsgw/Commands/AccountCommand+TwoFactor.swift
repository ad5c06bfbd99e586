import ArgumentParser
import Foundation
import OTP
import Store

extension AccountCommand {
    /// `smsgw account 2fa`: turn two-factor login on or off.
    struct TwoFactor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "2fa",
            abstract: "Two-factor login: a TOTP code after the passphrase on every unlock.",
            discussion: """
                `enable` shows a new secret as an otpauth:// URI and a QR code for an authenticator app, \
                then asks for its current code to confirm. From then on every unlock asks for a code \
                after the passphrase (or reads SMSGW_TOTP_CODE); a wrong or replayed code counts against \
                the lockout like a wrong passphrase, and a code is accepted once. It guards unlocking \
                through smsgw; it does not add encryption at rest (docs/CLI.md). An unattended \
                `smsgw serve` cannot answer the prompt: leave two-factor login off on gateways that \
                start without a person.
                """,
            subcommands: [Enable.self, Disable.self, Status.self]
        )
    }
}

extension AccountCommand.TwoFactor {
    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn two-factor login on.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(help: "Draw the QR code for a light terminal background.")
        var lightBackground = false

        @Option(help: ArgumentHelp(
            "Use this Base32 secret instead of a new random one (provisioning); - reads it from a masked prompt or stdin.",
            valueName: "base32"))
        var secret: String?

        func run() throws {
            let store = try StoreAccess.unlock(global)
            guard try !store.twoFactorEnabled else {
                throw CLIError("Two-factor login is already on; turn it off with `smsgw account 2fa disable` first.", status: .dataError)
            }
            let uri = try OTPFailure.mapping {
                let given = try secret.map { try SecretInput.read($0, what: "secret", prompt: "Base32 secret: ") }
                let key = try given.map { try OTPSecret(base32: $0) } ?? OTPSecret.random(byteCount: 20)
                return try OTPAuthURI(totp: TOTP(secret: key), issuer: "smsgw", account: store.username)
            }
            let enrolment = OTPEnrolment(uri: uri)
            Output.line("Add this to your authenticator app (it is shown once):")
            Output.line(uri.string)
            if let qr = try? QRCode(Array(uri.string.utf8)) { Output.line(qr.terminalString(invert: !lightBackground)) }
            let code = try LoginSecondFactor.readCode()
            let verification = try enrolment.verifier().verify(code, state: enrolment.initialState, now: Int64(Date().timeIntervalSince1970))
            guard verification.result.isAccepted else {
                throw CLIError("That code does not match the new secret; nothing changed. Run `smsgw account 2fa enable` again.", status: .dataError)
            }
            try store.enableTwoFactor(
                SecondFactorEnrolment(secret: enrolment.encoded(), state: OTPEnrolment.encodeState(verification.state)))
            Output.line("Two-factor login is on: every unlock now asks for a code after the passphrase.")
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn two-factor login off (asks for a code first).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        func run() throws {
            let store = try StoreAccess.unlock(global)
            Output.line(try store.disableTwoFactor() ? "Two-factor login is off." : "Two-factor login is already off.")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Say whether two-factor login is on.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        func run() throws {
            let store = try StoreAccess.unlock(global)
            Output.line(try store.twoFactorEnabled ? "Two-factor login is on." : "Two-factor login is off.")
        }
    }
}
