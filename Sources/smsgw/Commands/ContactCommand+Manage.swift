import ArgumentParser
import Foundation
import Operations
import Store
import TerminalIO

extension ContactCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the contacts.",
            discussion: "--json prints an array of the contact objects of `contact show --json` and `status --json`."
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Flag(help: "Print a JSON array of contacts.")
        var json = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let contacts = try Contacts.list(store: store)
            if json {
                Output.line(try Output.json(contacts))
                return
            }
            if contacts.isEmpty {
                Output.line("No contacts yet; add one with `smsgw contact add NAME`.")
                return
            }
            for contact in contacts {
                let number = contact.numbers.isEmpty ? "-" : contact.numbers.joined(separator: " ")
                let fields = [
                    contact.name, number, contact.pairing.rawValue + (contact.rePairing ? " (re-pairing)" : ""),
                    contact.sync.state.rawValue,
                ]
                Output.line(fields.map(TerminalText.escaped).joined(separator: "\t"))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a contact's numbers, pairing and sync state, positions and last activity (never keys or codes).",
            discussion: "--json prints the contact object of `contact list --json` and `status --json`."
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The contact's name.", completion: .contactNames)
        var name: String

        @Flag(help: "Print the contact as a JSON object.")
        var json = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let contact = try Contacts.contact(named: name, store: store)
            if json {
                Output.line(try Output.json(contact))
                return
            }
            func show(_ value: (some CustomStringConvertible)?) -> String { value.map(\.description) ?? "-" }
            let pairing = contact.rePairing ? "pending (re-pairing; current session still in use)" : contact.pairing.rawValue
            let lines = [
                "name:             \(contact.name)",
                "number:           \(contact.numbers.isEmpty ? "- (copy and paste)" : contact.numbers.joined(separator: " "))",
                "modem:            \(contact.modem ?? "any")",
                "pairing:          \(pairing)",
                "sync:             \(contact.sync.state)",
                "epoch:            \(show(contact.epoch))",
                "send position:    \(show(contact.sendPosition))",
                "receive position: \(show(contact.receivePosition))",
                "last sent:        \(contact.lastSentAt.map(Output.timestamp) ?? "-")",
                "last received:    \(contact.lastReceivedAt.map(Output.timestamp) ?? "-")",
                "acknowledgements: \(contact.acknowledgements ? "on" : "off"), last \(contact.lastAcknowledgedAt.map(Output.timestamp) ?? "-")",
                "protocol:         \(contact.protocolVersion)",
                "failures:         \(contact.sync.consecutiveFailures) in a row",
                "kept for resync:  \(contact.quarantined)",
            ]
            for line in lines + (contact.sync.advice.map { ["advice:           \($0.sentence(naming: contact.name))"] } ?? []) {
                Output.line(TerminalText.escaped(line))
            }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a contact, change its numbers, pin it to a modem or set its protocol version.")

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The contact's current name.", completion: .contactNames)
        var name: String

        @Option(name: .customLong("name"), help: "A new name.")
        var newName: String?

        @Option(
            help: ArgumentHelp(
                "The contact's number in international form; replaces all its numbers.",
                discussion: "Repeat it for a peer gateway with several modems: the first is the main number, SMS go to each in turn."),
            transform: PhoneNumber.parsing)
        var number: [PhoneNumber] = []

        @Flag(name: .customLong("clear-number"), help: "Remove the numbers (a copy-and-paste peer).")
        var clearNumber = false

        @Option(help: "Send to this contact through this modem (its name in the configuration) while it is ready.")
        var modem: String?

        @Flag(name: .customLong("any-modem"), help: "Let any modem send to this contact (undoes --modem).")
        var anyModem = false

        @Option(
            name: .customLong("protocol"), parsing: .unconditional,
            help: "The protocol version the contact's gateway speaks: 2 reads long texts, 1 does not.")
        var protocolVersion: Int?

        @Option(help: "Acknowledge messages end to end with this contact: on or off (each acknowledgement costs an SMS).")
        var acks: Switch?

        func validate() throws {
            if !number.isEmpty && clearNumber {
                throw ValidationError("Give either --number or --clear-number, not both.")
            }
            if modem != nil && anyModem {
                throw ValidationError("Give either --modem or --any-modem, not both.")
            }
            if let protocolVersion, ![1, 2].contains(protocolVersion) {
                throw ValidationError("--protocol is 1 or 2.")
            }
            if newName == nil && number.isEmpty && !clearNumber && modem == nil && !anyModem && protocolVersion == nil && acks == nil {
                throw ValidationError(
                    "Nothing to change; give --name, --number, --clear-number, --modem, --any-modem, --protocol or --acks.")
            }
        }

        func run() throws {
            let phones = number
            let store = try StoreAccess.unlock(global)
            let changes = Contacts.Changes(
                name: newName, numbers: !phones.isEmpty || clearNumber ? phones : nil,
                modem: modem != nil || anyModem ? .some(modem) : nil, protocolVersion: protocolVersion,
                acknowledgements: acks.map { $0 == .on })
            let contact = try Contacts.edit(name, changes: changes, store: store)
            let numbers = contact.numbers.isEmpty ? "no number" : contact.numbers.joined(separator: " ")
            Output.line(
                "Saved \(contact.name) (\(numbers); \(contact.modem.map { "via \($0)" } ?? "any modem"); protocol \(contact.protocolVersion); acknowledgements \(contact.acknowledgements ? "on" : "off"))."
            )
            try ContactCommand.warnIfUnknown(modem: modem, contact: contact.name, store: store)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a contact with its keys and messages.",
            discussion: "Without --yes, asks you to type the contact's name on the terminal to confirm."
        )

        @OptionGroup(title: "Global options") var global: GlobalOptions

        @Argument(help: "The contact's name.", completion: .contactNames)
        var name: String

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let contact = try Contacts.contact(named: name, store: store)
            if !yes {
                try Confirmation.require(
                    typing: contact.name,
                    prompt: "This deletes \(contact.name)'s keys and messages. Type the name to confirm: ")
            }
            try Contacts.remove(contact.name, store: store)
            Output.line("Removed \(contact.name) with their keys and messages.")
        }
    }
}

/// `on` or `off`, for a setting given as an option.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}
