import ArgumentParser
import Foundation
import Operations
import TerminalIO

/// The generator's options, shared by `vault generate`, `vault add --generate` and `vault edit --generate`.
struct GeneratorOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Characters in the password (4 to 256; default 20).", valueName: "n"))
    var length: Int?

    @Option(
        help: ArgumentHelp(
            "Character classes, comma-separated: lower, upper, digits, symbols (default all four).", valueName: "list"))
    var classes: String?

    @Flag(help: "Leave out characters that are easy to confuse (I l 1 O 0 o | ` ' \").")
    var excludeAmbiguous = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A passphrase of N words from the EFF large word list (3 to 40; 8 gives 103.4 bits).", valueName: "n"))
    var words: Int?

    func validate() throws {
        if words != nil, length != nil || classes != nil || excludeAmbiguous {
            throw ValidationError("--words makes a passphrase; leave out --length, --classes and --exclude-ambiguous.")
        }
    }

    /// The request the options describe.
    func request() throws -> PasswordRequest {
        if let words { return .words(count: words, separator: "-") }
        guard length != nil || classes != nil || excludeAmbiguous else { return .defaultCharacters }
        var chosen = Set(CharacterClass.allCases)
        if let classes {
            chosen = []
            for name in classes.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard let value = CharacterClass(rawValue: name) else {
                    throw ValidationError("Unknown class \"\(name)\" in --classes; use lower, upper, digits and symbols.")
                }
                chosen.insert(value)
            }
        }
        return .characters(length: length ?? 20, classes: chosen, excludeAmbiguous: excludeAmbiguous)
    }

    /// One password from the operating system's CSPRNG.
    func generate() throws -> GeneratedPassword {
        var rng = SystemRandomNumberGenerator()
        return try PasswordGenerator.generate(try request(), using: &rng)
    }
}

extension VaultCommand {
    /// `smsgw vault generate`: prints passwords and their entropy; needs no passphrase.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Print a random password or passphrase and its entropy (no passphrase needed).",
            discussion: """
                Characters are drawn uniformly from the operating system's CSPRNG without modulo bias, and \
                every requested class appears at least once; the entropy counts exactly the passwords that \
                satisfy that, so it is slightly below length × log2(alphabet). Passphrases use the EFF large \
                word list (7776 words, 12.9 bits each), shipped with smsgw. Defaults: 20 characters of all \
                classes (130.9 bits) or, with --words, the count given.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions
        @OptionGroup(title: "Generator options") var generator: GeneratorOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("How many passwords to print (1 to 100).", valueName: "n"))
        var count = 1

        @Flag(help: "Print one JSON array of {password, bits, source}.")
        var json = false

        func validate() throws {
            guard (1...100).contains(count) else { throw ValidationError("--count must be 1 to 100.") }
        }

        func run() throws {
            let passwords = try (0..<count).map { _ in try generator.generate() }
            if json {
                Output.line(try Output.json(passwords))
                return
            }
            for password in passwords { Output.line(password.password) }
            Output.diagnostic("\(Output.bits(passwords[0].bits)) of entropy each, from \(passwords[0].source).")
        }
    }
}
