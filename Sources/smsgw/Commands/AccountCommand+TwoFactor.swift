import ArgumentParser
import Foundation
import Operations
import TerminalIO

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
            try TwoFactorLogin.requireOff(store)
            let given = try secret.map { try SecretInput.read($0, what: "secret", prompt: "Base32 secret: ") }
            var rng = SystemRandomNumberGenerator()
            let proposal = try TwoFactorLogin.propose(for: store, secret: given, using: &rng)
            Output.line("Add this to your authenticator app (it is shown once):")
            Output.line(proposal.uri.string)
            if let drawing = try? QRDrawing.draw(proposal.uri, invert: !lightBackground) { Output.line(drawing) }
            try TwoFactorLogin.enable(proposal, code: try LoginCode.read(), in: store, now: Date())
            Output.line("Two-factor login is on: every unlock now asks for a code after the passphrase.")
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn two-factor login off (asks for a code first).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        func run() throws {
            let store = try StoreAccess.unlock(global)
            Output.line(try TwoFactorLogin.disable(store) ? "Two-factor login is off." : "Two-factor login is already off.")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Say whether two-factor login is on.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        func run() throws {
            let store = try StoreAccess.unlock(global)
            Output.line(try TwoFactorLogin.isEnabled(store) ? "Two-factor login is on." : "Two-factor login is off.")
        }
    }
}
