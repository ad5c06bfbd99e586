import ArgumentParser
import Failures
import Foundation
import Gateway
import SMSCipher
import StandardErrorLogging
import Store
import TerminalIO

/// Prints an error as `smsgw: SENTENCE` on stderr and exits with its documented status: the
/// tool's own errors and swift-argument-parser's usage errors alike.
enum ErrorReport {
    /// The sysexits(3) status for an error the tool raised, or nil when swift-argument-parser
    /// owns it (help, version, completions, usage errors).
    static func exitStatus(for error: any Error) -> Int32? {
        switch error {
        case let error as CLIError: error.status.rawValue
        case let error as any CategorizedError: status(for: error).rawValue
        default: nil
        }
    }

    /// The one-sentence message for an error the tool itself raised.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as CLIError: error.message
        case let error as any CategorizedError: [sentence(for: error), ErrorHint.hint(for: error)].compactMap { $0 }.joined(separator: " ")
        default: String(describing: error)
        }
    }

    /// Reports `error` and ends the process.
    static func exit(with error: any Error) -> Never {
        if let status = exitStatus(for: error) {
            // Under systemd the line that ends the daemon is an error to journald too (`-p err`).
            Output.error((StandardErrorLogHandler.isJournal ? "<3>" : "") + "smsgw: " + TerminalText.escaped(message(for: error)))
            Output.flush()
            Foundation.exit(status)
        }
        let code = SMSGW.exitCode(for: error)
        // Help, --version and completion scripts: argument-parser prints them on stdout.
        if code == .success { SMSGW.exit(withError: error) }
        for line in SMSGW.message(for: error).split(separator: "\n") where !line.isEmpty {
            Output.diagnostic(String(line))
        }
        if code == .validationFailure {
            Output.diagnostic("see `\(commandPath(CommandLine.arguments.dropFirst())) --help`.")
        }
        Output.flush()
        Foundation.exit(code.rawValue)
    }

    /// "smsgw contact pair" for `contact pair bob …`: the deepest command the words name, for the
    /// pointer to its help (the usage lines argument-parser would print do not start `smsgw: `).
    static func commandPath(_ arguments: ArraySlice<String>) -> String {
        var path = ["smsgw"]
        var commands: [any ParsableCommand.Type] = SMSGW.configuration.subcommands
        for word in arguments where !word.hasPrefix("-") {
            if commands.isEmpty { break }
            guard let next = commands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) })
            else { continue }
            path.append(word)
            commands = next.configuration.subcommands
        }
        return path.joined(separator: " ")
    }
}
