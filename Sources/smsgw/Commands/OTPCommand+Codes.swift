import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension OTPCommand {
    /// `smsgw otp code`: the current TOTP code, or the next HOTP code (advancing the counter).
    struct Code: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "code",
            abstract: "Print the current code (HOTP: the next one; the counter moves on).",
            discussion: """
                An HOTP code is taken and its counter advanced in one transaction, so no code is printed twice. \
                For a TOTP code of now, stderr says how many more seconds it stays valid.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The entry's name.")
        var name: String

        @Option(
            parsing: .unconditional, help: ArgumentHelp("TOTP: the Unix time to compute the code for (default now).", valueName: "unixtime")
        )
        var at: Int64?

        func run() throws {
            try OTPEntries.requireUserName(name)
            let store = try StoreAccess.unlock(global)
            let current = try OTPEntries.currentCode(named: name, in: store, at: at.map(OTPCommand.date), now: Date())
            Output.line(current.code)
            // As `vault code` tells it; not for a code asked for at another time.
            if at == nil, let seconds = current.validFor { Output.diagnostic("valid for \(seconds) more seconds.") }
        }
    }

    /// `smsgw otp verify`: checks a code, with replay rejection and throttling saved in the same
    /// transaction.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a code: exit 0 accepted, 65 wrong or already used, 77 too many failures.",
            discussion: """
                TOTP accepts one step either side of the time; HOTP accepts up to 10 counters ahead and \
                resynchronises. The state (last accepted step, failures, refusal time) is committed with \
                the check, so a code is accepted at most once across processes. Left out (or `-`), the code is \
                typed at a masked prompt (stdin in scripts); an argument works, with a warning.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The entry's name.")
        var name: String

        @Argument(help: "The code as typed, spaces ignored (better left out: it is asked for).")
        var code: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("The Unix time of the attempt (default now).", valueName: "unixtime"))
        var at: Int64?

        func run() throws {
            try OTPEntries.requireUserName(name)
            let store = try StoreAccess.unlock(global)
            let typed = try SecretInput.read(code, what: "code", prompt: "Code for \(TerminalText.escaped(name)): ")
            try OTPEntries.verify(typed, named: name, in: store, now: at.map(OTPCommand.date) ?? Date())
            Output.line("Accepted.")
        }
    }
}
