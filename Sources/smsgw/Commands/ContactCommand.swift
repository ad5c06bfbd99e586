import ArgumentParser
import Foundation
import Logging
import SMSCipher
import Store

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
                discussion: "Repeat it for a peer gateway with several modems: SMS from any of its numbers are this contact's, and SMS to it go to each number in turn."))
        var number: [String] = []

        @Option(help: "Send to this contact through this modem (its name in the configuration) while it is ready.")
        var modem: String?

        @Flag(help: "Print {\"name\",\"number\",\"pairingCode\"} as JSON.")
        var json = false

        func run() throws {
            let phones = try number.map { try PhoneNumber($0) }
            let store = try StoreAccess.unlock(global)
            var rng = SystemRandomNumberGenerator()
            let code = PairingCode.generate(using: &rng)
            let contact = try store.write { tx in
                var contact = try tx.addContact(name: name, number: phones.first, pairingCode: code.storedData)
                if phones.count > 1 { contact = try tx.setNumbers(phones, forContactNamed: contact.name) }
                if let modem { contact = try tx.setModem(modem, forContactNamed: contact.name) }
                return contact
            }
            global.makeLogger().info("Added a contact.", metadata: [LogKey.contact: "\(contact.name)"])
            try ContactCommand.warnIfUnknown(modem: modem, contact: contact.name, store: store)
            if json {
                Output.line(try Output.json(AddResult(name: contact.name, number: contact.number?.e164, pairingCode: code.grouped)))
            } else {
                Output.line(code.grouped)
                Output.line(
                    "Give this code to \(contact.name) in person (not by phone call or SMS, which the same network carries), then enter theirs with `smsgw contact pair \(Shell.quote(contact.name))`.")
            }
        }

        struct AddResult: Encodable {
            var name: String
            var number: String?
            var pairingCode: String

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(number, forKey: .number)  // null, not absent, for a phone-only peer
                try container.encode(pairingCode, forKey: .pairingCode)
            }

            enum CodingKeys: String, CodingKey { case name, number, pairingCode }
        }
    }

    /// `contact pair`: combines the two codes into a session and prints the safety code.
    struct Pair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enter the contact's pairing code; prints the safety code to compare.",
            discussion: """
                Left out, the code is typed at a masked prompt when stdin is a terminal, else read \
                from the first line of stdin; given as an argument it works (in one word or in \
                groups separated by spaces) but is visible to every local user and kept in the \
                shell's history, and a warning says so. Spaces, hyphens, dots and other dashes \
                between the groups, letter case and the look-alikes O/0 and I/L/1 do not matter. \
                After `smsgw resync NAME --manual`, this completes the re-pairing with the \
                contact's new code; messages they sent before still open for 7 days.
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
            let (contact, session, repaired) = try store.write { tx in
                let contact = try tx.contact(named: name)
                guard let mine = try tx.decodedPairingCode(for: contact) else {
                    throw CLIError(
                        "\"\(contact.name)\" is already paired; for new codes run `smsgw resync \(Shell.quote(contact.name)) --manual` first.",
                        status: .dataError)
                }
                let session: Session
                let current = try tx.decodedSession(for: contact)
                if let current {
                    session = try current.repaired(mine: mine, peer: peer, now: Date())
                } else {
                    session = try Session.paired(mine: mine, peer: peer)
                }
                try tx.setPaired(contact, session: StoreTransaction.encode(session))
                return (contact, session, current != nil)
            }
            global.makeLogger().info(
                repaired ? "Re-paired a contact." : "Paired a contact.", metadata: [LogKey.contact: "\(contact.name)"])
            if json {
                Output.line(try Output.json(["name": contact.name, "safetyCode": session.safetyCode]))
            } else {
                Output.line(session.safetyCode)
                Output.line("Read this safety code to \(contact.name); it must match theirs. If it differs, a code was mistyped: run `smsgw resync \(Shell.quote(contact.name)) --manual` and pair again.")
            }
        }
    }
}

/// Quoting names for the commands we suggest, so a name with spaces can be pasted.
enum Shell {
    static func quote(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.+@".unicodeScalars.contains($0) }
        return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
