import ArgumentParser
import Foundation
import Gateway
import Logging
import SMSCipher
import Store

/// `smsgw resync`: a resynchronisation handshake over SMS through the daemon, or a manual re-pairing.
struct ResyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resync",
        abstract: "Resynchronise with a contact over SMS; --manual prints a new pairing code.",
        discussion: """
            Without --manual the handshake goes over SMS: it is queued for the daemon \
            (`smsgw serve`), which sends it, sends it again every resync_retry_seconds until the \
            contact's gateway answers, and then switches both sides to fresh keys; `smsgw status` \
            shows "resync pending" meanwhile. Prints the handshake's outbox id. Running it again \
            while one is pending repeats the pending handshake.

            --manual stores a new pairing code for the contact and prints it; the current session \
            keeps working until `smsgw contact pair NAME THEIR-NEW-CODE` completes the re-pairing.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's name.")
    var name: String

    @Flag(help: "Re-pair with new codes exchanged in person (not over a phone call, which the SMS network carries too).")
    var manual = false

    @Flag(help: "Print JSON: {\"name\",\"pairingCode\"} with --manual, else {\"name\",\"outboxId\"}.")
    var json = false

    func run() throws {
        let store = try StoreAccess.unlock(global)
        guard manual else { return try startOverSMS(store: store) }
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

    /// Queues the handshake for the daemon and says what happens next.
    private func startOverSMS(store: UnlockedStore) throws {
        // A copy-and-paste peer has no number: the SMS path is unavailable (69), not bad data.
        let known = try store.read { try $0.contact(named: name) }
        guard known.number != nil else {
            throw CLIError(
                "\(known.name) has no phone number, so a resync cannot go over SMS; re-pair with `smsgw resync \(Shell.quote(known.name)) --manual`, or add the number with `smsgw contact edit \(Shell.quote(known.name)) --number +E164`.",
                status: .unavailable)
        }
        let outboxID = try GatewayActions.startResync(contactName: name, store: store)
        let status = try GatewayActions.status(store: store)
        let contact = status.contacts.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.name ?? name
        global.makeLogger().info("Started a resync over SMS.", metadata: [LogKey.contact: "\(contact)"])
        if json {
            Output.line(try Output.json(ResyncStarted(name: contact, outboxId: outboxID)))
        } else {
            Output.line("\(outboxID)")
            Output.line(
                "Resync with \(contact) started: the daemon sends the handshake and repeats it until \(contact)'s gateway answers; `smsgw status` shows \"resync pending\" until then, and messages flow again on fresh keys after.")
        }
        if !SendCommand.daemonRuns(global) {
            Output.error(
                "smsgw: warning: no gateway daemon is running on this data directory; the handshake stays queued until `smsgw serve` runs.")
        }
    }

    struct ResyncStarted: Encodable {
        var name: String
        var outboxId: Int64
    }
}
