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
                Every unlock then asks for a code after the passphrase (or reads SMSGW_TOTP_CODE). It \
                guards unlocking, it does not encrypt: leave it off on gateways that start unattended. See \
                docs/CLI.md.
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

        @Option(
            help: ArgumentHelp(
                "Use this Base32 secret instead of a new random one (provisioning); - reads it from a masked prompt or stdin.",
                valueName: "base32"))
        var secret: String?

        func run() throws {
            let store = try StoreAccess.unlock(global)
            try TwoFactorLogin.requireOff(store)
            let given = try secret.map { try SecretInput.read($0, what: "secret", prompt: "Base32 secret: ") }
            // The secret is shown once: not when the code that confirms it cannot be asked for.
            guard LoginCode.isAvailable() else {
                throw CLIError(
                    "There is no terminal to ask for the authenticator app's first code, so two-factor login stays off; run this on a terminal, or pipe the secret in with `--secret -` and set \(LoginCode.variable) to its current code.",
                    status: .authentication)
            }
            var rng = SystemRandomNumberGenerator()
            let proposal = try TwoFactorLogin.propose(for: store, secret: given, using: &rng)
            Output.line("Add this to your authenticator app (it is shown once):")
            Output.line(proposal.uri.string)
            if let drawing = try? QRDrawing.draw(proposal.uri, invert: !lightBackground) { Output.line(drawing) }
            let wait = try TwoFactorLogin.enable(proposal, code: try LoginCode.read(), in: store, now: Date())
            Output.line("Two-factor login is on: every unlock now asks for a code after the passphrase.")
            Output.line(
                "The code just entered is used up: the next unlock needs the next code the app shows (in \(wait) \(wait == 1 ? "second" : "seconds"))."
            )
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
