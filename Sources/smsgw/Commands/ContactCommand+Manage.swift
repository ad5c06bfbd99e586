import ArgumentParser
import Foundation
import SMSCipher
import Store

/// What `contact list` and `contact show` print: never keys or codes.
struct ContactSummary: Encodable {
    var name: String
    var number: String?
    /// Every number, the main one first.
    var numbers: [String]
    var modem: String?
    var state: String
    /// True while a manual re-pairing is pending and the previous session still works.
    var rePairing: Bool
    var epoch: UInt32?
    var sendPosition: UInt32?
    var receivePosition: UInt32?
    var lastSent: Date?
    var lastReceived: Date?
    var failures: Int

    init(_ contact: Contact, session: Session?) {
        name = contact.name
        number = contact.number?.e164
        numbers = contact.numbers.map(\.e164)
        modem = contact.modem
        state = contact.pairingState.rawValue
        rePairing = contact.pairingState == .pending && session != nil
        epoch = session?.epoch
        sendPosition = session?.sendPosition
        receivePosition = session?.receivePosition
        lastSent = contact.lastSentAt
        lastReceived = contact.lastReceivedAt
        failures = contact.verificationFailures
    }

    enum CodingKeys: String, CodingKey {
        case name, number, numbers, modem, state, rePairing, epoch, sendPosition, receivePosition, lastSent, lastReceived, failures
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(number, forKey: .number)
        try container.encode(numbers, forKey: .numbers)
        try container.encode(modem, forKey: .modem)
        try container.encode(state, forKey: .state)
        try container.encode(rePairing, forKey: .rePairing)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(sendPosition, forKey: .sendPosition)
        try container.encode(receivePosition, forKey: .receivePosition)
        try container.encode(lastSent, forKey: .lastSent)
        try container.encode(lastReceived, forKey: .lastReceived)
        try container.encode(failures, forKey: .failures)
    }

    var stateText: String { rePairing ? "pending (re-pairing; current session still in use)" : state }
}

extension ContactCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the contacts.")

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print a JSON array of contacts.")
        var json = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let summaries = try store.read { reader in
                try reader.contacts().map { ContactSummary($0, session: try reader.decodedSession(for: $0)) }
            }
            if json {
                Output.line(try Output.json(summaries))
                return
            }
            if summaries.isEmpty {
                Output.line("No contacts yet; add one with `smsgw contact add NAME`.")
                return
            }
            for summary in summaries {
                let number = summary.numbers.isEmpty ? "-" : summary.numbers.joined(separator: " ")
                Output.line("\(summary.name)\t\(number)\t\(summary.state)\(summary.rePairing ? " (re-pairing)" : "")")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a contact's number, pairing state, positions and last activity (never keys or codes)."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact's name.")
        var name: String

        @Flag(help: "Print the contact as a JSON object.")
        var json = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let summary = try store.read { reader in
                let contact = try reader.contact(named: name)
                return ContactSummary(contact, session: try reader.decodedSession(for: contact))
            }
            if json {
                Output.line(try Output.json(summary))
                return
            }
            func show(_ value: (some CustomStringConvertible)?) -> String { value.map(\.description) ?? "-" }
            Output.line("name:             \(summary.name)")
            Output.line("number:           \(summary.numbers.isEmpty ? "- (copy and paste)" : summary.numbers.joined(separator: " "))")
            Output.line("modem:            \(summary.modem ?? "any")")
            Output.line("state:            \(summary.stateText)")
            Output.line("epoch:            \(show(summary.epoch))")
            Output.line("send position:    \(show(summary.sendPosition))")
            Output.line("receive position: \(show(summary.receivePosition))")
            Output.line("last sent:        \(summary.lastSent.map(Output.timestamp) ?? "-")")
            Output.line("last received:    \(summary.lastReceived.map(Output.timestamp) ?? "-")")
            Output.line("failures:         \(summary.failures)")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a contact, change its numbers or pin it to a modem.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact's current name.")
        var name: String

        @Option(name: .customLong("name"), help: "A new name.")
        var newName: String?

        @Option(
            help: ArgumentHelp(
                "The contact's number in international form; replaces all its numbers.",
                discussion: "Repeat it for a peer gateway with several modems: the first is the main number, SMS go to each in turn."))
        var number: [String] = []

        @Flag(name: .customLong("clear-number"), help: "Remove the numbers (a copy-and-paste peer).")
        var clearNumber = false

        @Option(help: "Send to this contact through this modem (its name in the configuration) while it is ready.")
        var modem: String?

        @Flag(name: .customLong("any-modem"), help: "Let any modem send to this contact (undoes --modem).")
        var anyModem = false

        func validate() throws {
            if !number.isEmpty && clearNumber {
                throw ValidationError("Give either --number or --clear-number, not both.")
            }
            if modem != nil && anyModem {
                throw ValidationError("Give either --modem or --any-modem, not both.")
            }
            if newName == nil && number.isEmpty && !clearNumber && modem == nil && !anyModem {
                throw ValidationError("Nothing to change; give --name, --number, --clear-number, --modem or --any-modem.")
            }
        }

        func run() throws {
            let phones = try number.map { try PhoneNumber($0) }
            let store = try StoreAccess.unlock(global)
            let contact = try store.write { tx in
                var contact = try tx.contact(named: name)
                if !phones.isEmpty || clearNumber { contact = try tx.setNumbers(phones, forContactNamed: contact.name) }
                if modem != nil || anyModem { contact = try tx.setModem(modem, forContactNamed: contact.name) }
                if let newName { contact = try tx.renameContact(named: contact.name, to: newName) }
                return contact
            }
            let numbers = contact.numbers.isEmpty ? "no number" : contact.numbers.map(\.e164).joined(separator: " ")
            Output.line("Saved \(contact.name) (\(numbers); \(contact.modem.map { "via \($0)" } ?? "any modem")).")
            try ContactCommand.warnIfUnknown(modem: modem, contact: contact.name, store: store)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a contact with its keys and messages.",
            discussion: "Without --yes, asks you to type the contact's name on the terminal to confirm."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact's name.")
        var name: String

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let store = try StoreAccess.unlock(global)
            let contact = try store.contact(named: name)
            if !yes {
                try Confirmation.require(
                    typing: contact.name,
                    prompt: "This deletes \(contact.name)'s keys and messages. Type the name to confirm: ")
            }
            try store.removeContact(named: contact.name)
            Output.line("Removed \(contact.name) with their keys and messages.")
        }
    }
}
