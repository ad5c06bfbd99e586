import ArgumentParser
import Foundation
import Operations
import TerminalIO

extension VaultCommand {
    /// `smsgw vault audit`: items whose password is reused, weak, old or exposed.
    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audit",
            abstract: "List items whose password is reused, weak, old or exposed.",
            discussion: """
                reused: another item has the same password. weak: below 50 bits (the generator's figure, or \
                the estimate of a typed password). old: not changed for --days days (default 365). exposed: \
                marked as known to someone who should not know it, until the password changes. Exit 0 \
                whatever is found.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("Days after which a password is old.", valueName: "n"))
        var days = Vault.defaultOldAfterDays

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let audit = try Vault.audit(in: try StoreAccess.unlock(global), oldAfterDays: days, now: Date())
            if json {
                Output.line(try Output.json(audit))
                return
            }
            for finding in audit.findings {
                var notes = finding.problems.map(\.rawValue)
                if !finding.reusedWith.isEmpty { notes.append("same as " + finding.reusedWith.joined(separator: ", ")) }
                notes.append(Output.bits(finding.strength.bits))
                notes.append("changed \(Output.timestamp(finding.passwordChangedAt))")
                Output.line(([finding.title] + notes).map { TerminalText.escaped($0) }.joined(separator: "\t"))
            }
            Output.diagnostic("\(audit.findings.count) of \(audit.items) items need attention.")
        }
    }
}
