import Foundation
import TestSupport
import Testing

/// Every help screen, as a person meets the commands: reached from `smsgw --help` through each
/// SUBCOMMANDS list, and read for what a reader would trip over.
@Suite("Help texts", .blockingOffPool)
struct HelpTextTests {
    /// The help of `command` and of every command under it.
    static func screens(_ command: [String] = []) throws -> [(command: [String], help: String)] {
        let result = try SMSGWBinary.run(command + ["--help"], environment: [:])
        #expect(result.status == 0, "\(command): \(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        var screens = [(command, result.stdout)]
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return screens }
        // The list ends at its first blank line (then "See 'smsgw help …'"); a subcommand's line
        // starts with two spaces and its name, a wrapped abstract deeper.
        for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { continue }
            screens += try Self.screens(command + [String(name)])
        }
        return screens
    }

    @Test("No screen lists an option's values with empty descriptions; values, scopes and commands are named as the docs name them")
    func everyScreenReads() throws {
        let screens = try Self.screens()
        #expect(screens.count > 70, "only \(screens.count) help screens reached")
        for (command, help) in screens {
            for line in help.split(separator: "\n") {
                // argument-parser's listing of enumerated values, each "VALUE - description", with none.
                #expect(!line.hasSuffix(" - "), "\(command): \(line)")
            }
        }
        let prune = try #require(screens.first { $0.command == ["log", "prune"] }).help
        #expect(prune.contains("--older-than <days>"), "\(prune)")
        let token = try #require(screens.first { $0.command == ["api", "token", "create"] }).help
        // Wrapped to the terminal's width: compared with its lines joined.
        #expect(token.replacingOccurrences(of: "\n", with: " ").contains("metrics (GET /metrics alone"), "\(token)")
        let top = try #require(screens.first { $0.command.isEmpty }).help
        #expect(top.contains("two-factor login"), "`account` names all it does: \(top)")
    }
}
