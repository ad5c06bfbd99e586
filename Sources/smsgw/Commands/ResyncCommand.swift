import ArgumentParser
import Foundation
import Logging
import SMSCipher
import Store

/// `smsgw resync`: manual re-pairing now; the handshake over SMS comes with `smsgw serve`.
struct ResyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resync",
        abstract: "Resynchronise with a contact; --manual prints a new pairing code.",
        discussion: """
            --manual stores a new pairing code for the contact and prints it; the current session \
            keeps working until `smsgw contact pair NAME THEIR-NEW-CODE` completes the re-pairing. \
            Resync over SMS needs the daemon (`smsgw serve`, next release); without --manual the \
            command exits 69.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's name.")
    var name: String

    @Flag(help: "Re-pair with new codes exchanged in person or by phone.")
    var manual = false

    @Flag(help: "With --manual, print {\"name\",\"pairingCode\"} as JSON.")
    var json = false

    func run() throws {
        guard manual else {
            throw CLIError(
                "Resync over SMS needs the daemon (`smsgw serve`, coming in the next release); use `smsgw resync \(Shell.quote(name)) --manual` to re-pair with new codes.",
                status: .unavailable)
        }
        let store = try StoreAccess.unlock(global)
        var rng = SystemRandomNumberGenerator()
        let code = PairingCode.generate(using: &rng)
        let contact = try store.write { tx in
            let contact = try tx.contact(named: name)
            let current = try tx.session(for: contact)
            try tx.resetPairing(contact, pairingCode: code.storedData)
            // resetPairing forgets the session; put it back so messages keep flowing until the
            // re-pairing completes (and so `contact pair` can keep its receive chain for late ones).
            if let current { try tx.setSession(current, for: contact) }
            return contact
        }
        global.makeLogger().info("Started a manual re-pairing.", metadata: [LogKey.contact: "\(contact.name)"])
        if json {
            Output.line(try Output.json(["name": contact.name, "pairingCode": code.grouped]))
        } else {
            Output.line(code.grouped)
            Output.line(
                "Read this new code to \(contact.name), then enter theirs with `smsgw contact pair \(Shell.quote(contact.name)) THEIR-NEW-CODE`; until then the current session keeps working.")
        }
    }
}
