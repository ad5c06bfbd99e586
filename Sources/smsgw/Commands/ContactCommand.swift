import ArgumentParser
import Foundation
import Logging
import Operations
import SMSCipher
import Store
import TerminalIO

/// `smsgw contact …`: adding, pairing and managing the people you exchange SMS with.
struct ContactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact",
        abstract: "Add, pair, list, show, edit and remove contacts.",
        subcommands: [Add.self, Pair.self, List.self, Show.self, Edit.self, Remove.self]
    )
}

extension ContactCommand {
    /// `contact add`: stores a pending contact and prints this side's pairing code.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a contact and print this side's pairing code to read to them."
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The contact's name (unique, case-insensitive).")
        var name: String

        @Option(
            help: ArgumentHelp(
                "The contact's number in international form, e.g. +447700900123.",
                discussion:
                    "Repeat it for a peer gateway with several modems: SMS from any of its numbers are this contact's, and SMS to it go to each number in turn."
            ), transform: PhoneNumber.parsing)
        var number: [PhoneNumber] = []

        @Option(help: "Send to this contact through this modem (its name in the configuration) while it is ready.")
        var modem: String?

        @Flag(help: "Print {\"name\",\"number\",\"pairingCode\"} as JSON.")
        var json = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            var rng = SystemRandomNumberGenerator()
            let added = try Contacts.add(name: name, numbers: number, modem: modem, store: store, using: &rng)
            global.makeLogger().info("Added a contact.", metadata: [LogKey.contact: "\(added.name)"])
            try ContactCommand.warnIfUnknown(modem: modem, contact: added.name, store: store)
            if json {
                Output.line(try Output.json(added))
            } else {
                Output.line(added.pairingCode)
                Output.line(
                    "Give this code to \(added.name) in person (not by phone call or SMS, which the same network carries), then enter theirs with `smsgw contact pair \(Shell.quote(added.name))`."
                )
            }
        }
    }

    /// `contact pair`: combines the two codes into a session and prints the safety code.
    struct Pair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enter the contact's pairing code; prints the safety code to compare.",
            discussion: """
                Left out, the code is typed at a masked prompt (stdin in scripts); an argument works, with a \
                warning. Separators, case and look-alikes (O/0, I/L/1) do not matter. See docs/CLI.md.
                """
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The contact's name.", completion: .contactNames)
        var name: String

        @Argument(help: "The code the contact read to you, e.g. 7KQ2-M9XD-4HJP-R0TB-WC3N (better left out: it is asked for).")
        var code: [String] = []

        @Flag(help: "Print {\"name\",\"safetyCode\"} as JSON.")
        var json = false

        /// The code as given on the command line, its groups joined; nil when left out.
        private var givenCode: String? { code.isEmpty ? nil : PairingCodeInput.normalised(code) }

        func validate() throws {
            guard let givenCode, givenCode != "-" else { return }
            do {
                _ = try PairingCode(parsing: givenCode)
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let typed = try SecretInput.read(givenCode, what: "pairing code", prompt: "\(name)'s pairing code: ")
            let peer = try PairingCode(parsing: PairingCodeInput.normalised([typed]))
            let paired = try Contacts.pair(name, code: peer, store: store, now: Date())
            global.makeLogger().info(
                paired.rePaired ? "Re-paired a contact." : "Paired a contact.", metadata: [LogKey.contact: "\(paired.name)"])
            if json {
                Output.line(try Output.json(paired))
            } else {
                Output.line(paired.safetyCode)
                Output.line(
                    "Read this safety code to \(paired.name); it must match theirs. If it differs, a code was mistyped: run `smsgw resync \(Shell.quote(paired.name)) --manual` and pair again."
                )
            }
        }
    }
}
