import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension OperatorCommand {
    /// `smsgw operator 2fa`: an operator's second factor for the console login.
    struct TwoFactor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "2fa",
            abstract: "Two-factor login for an operator: a TOTP code after the password at every console login.",
            subcommands: [Enable.self, Disable.self]
        )
    }
}

extension OperatorCommand.TwoFactor {
    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enrol a new TOTP secret for an operator (shows its URI and QR code once, then asks for its first code).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The operator's name.")
        var name: String

        @Flag(help: "Draw the QR code for a light terminal background.")
        var lightBackground = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            var rng = SystemRandomNumberGenerator()
            let proposal = try Operators.proposeTwoFactor(for: name, in: store, using: &rng)
            Output.line("Add this to the operator's authenticator app (it is shown once):")
            Output.line(proposal.uri.string)
            if let drawing = try? QRDrawing.draw(proposal.uri, invert: !lightBackground) { Output.line(drawing) }
            try Operators.enableTwoFactor(name, proposal: proposal, code: try Self.firstCode(), by: .commandLine, in: store, now: Date())
            Output.line(TerminalText.escaped("Two-factor login is on for \(name): the console now asks for a code after the password."))
        }

        /// The first code from the operator's app: a masked prompt, or stdin in scripts. Not
        /// SMSGW_TOTP_CODE, which holds the account's own login code.
        static func firstCode() throws -> String {
            try SecretInput.read(nil, what: "code", prompt: "The code the authenticator app shows now: ")
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn an operator's two-factor login off (for a lost authenticator; enrol again after).")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The operator's name.")
        var name: String

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let changed = try Operators.disableTwoFactor(name, by: .commandLine, in: store, now: Date())
            Output.line(TerminalText.escaped("Two-factor login is \(changed ? "now" : "already") off for \(name)."))
        }
    }
}
