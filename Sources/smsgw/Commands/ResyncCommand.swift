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
            Without options the handshake goes over SMS: it is queued for the daemon \
            (`smsgw serve`), which sends it, and sends it again with growing pauses (at most 6 \
            times) until the contact's gateway answers; both sides then switch to fresh keys. It \
            prints the handshake's message id (its `smsgw log` id) and a six-digit code: read the code to the contact, \
            whose operator sees the same code with the request and accepts it. `smsgw status` \
            shows "resync pending" meanwhile. Running it again while one is pending repeats the \
            pending handshake; --restart abandons it and starts a new one.

            When the contact's gateway asks for a resync, nothing changes until the operator \
            decides (unless the daemon is configured with `[resync] accept = "auto"`): `smsgw \
            status` shows "resync requested" with the code. Confirm the code with the contact by \
            phone, then --accept puts the new keys in force and queues the answer (for a contact \
            without a number it prints the answer to send by hand); --reject drops the request. \
            A thief holding a copy of the contact's key state can ask too, which is why the code \
            is checked (docs/PROTOCOL.md §7.4).

            --manual stores a new pairing code for the contact and prints it; the current session \
            keeps working until `smsgw contact pair NAME THEIR-NEW-CODE` completes the re-pairing.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @Argument(help: "The contact's name.", completion: .contactNames)
    var name: String

    @Flag(help: "Re-pair with new codes exchanged in person (not over a phone call, which the SMS network carries too).")
    var manual = false

    @Flag(help: "Accept the contact's resync request (after confirming its code) and answer it.")
    var accept = false

    @Flag(help: "Reject the contact's resync request; the keys stay as they are.")
    var reject = false

    @Flag(help: "Abandon this side's unanswered handshake and start a new one.")
    var restart = false

    @Flag(help: """
        Print JSON: {"name","pairingCode"} with --manual; {"id","contact","epoch","answer"} with \
        --accept; {"contact","rejected"} with --reject; else {"id","contact","code"}.
        """)
    var json = false

    func validate() throws {
        if [manual, accept, reject, restart].filter({ $0 }).count > 1 {
            throw ValidationError("Use only one of --manual, --accept, --reject and --restart.")
        }
    }

    func run() throws {
        let store = try StoreAccess.unlock(global)
        if accept { return try acceptRequest(store: store) }
        if reject { return try rejectRequest(store: store) }
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
        let started = try GatewayActions.startResync(contactName: name, restart: restart, store: store)
        let contact = started.contact
        global.makeLogger().info("Started a resync over SMS.", metadata: [LogKey.contact: "\(contact)"])
        if json {
            Output.line(try Output.json(ResyncStarted(id: started.logID, contact: contact, code: started.code)))
        } else {
            Output.line("\(started.logID)")
            Output.line(
                "Resync with \(contact) started (code \(started.code)): read the code to \(contact), whose operator accepts the request once the codes match. The daemon sends the handshake and repeats it until \(contact)'s gateway answers; `smsgw status` shows \"resync pending\" until then, and messages flow again on fresh keys after.")
        }
        if !SendCommand.daemonRuns(global) {
            Output.warning("no gateway daemon is running on this data directory; the handshake stays queued until `smsgw serve` runs.")
        }
    }

    /// Completes the contact's request and queues (or prints) the answer.
    private func acceptRequest(store: UnlockedStore) throws {
        let accepted = try GatewayActions.acceptResync(contactName: name, store: store)
        let contact = try store.read { try $0.contact(named: name) }.name
        global.makeLogger().notice("Accepted a resync request.", metadata: [LogKey.contact: "\(contact)", LogKey.epoch: "\(accepted.epoch)"])
        if json {
            Output.line(try Output.json(ResyncAccepted(id: accepted.logID, contact: contact, epoch: accepted.epoch, answer: accepted.answer)))
            return
        }
        guard accepted.outboxID != nil else {
            Output.line(accepted.answer)
            Output.diagnostic("Resync with \(contact) accepted: new keys in force (epoch \(accepted.epoch)); send the printed answer to \(contact).")
            return
        }
        Output.line("\(accepted.logID)")
        Output.line(
            "Resync with \(contact) accepted: new keys in force (epoch \(accepted.epoch)); the daemon sends the answer, and \(contact)'s gateway switches when it arrives.")
        if accepted.openedFromQuarantine > 0 {
            Output.line("\(accepted.openedFromQuarantine) kept messages from \(contact) opened with the new keys; see `smsgw log`.")
        }
        if !SendCommand.daemonRuns(global) {
            Output.warning("no gateway daemon seems to be running; the answer stays queued until `smsgw serve` runs.")
        }
    }

    private func rejectRequest(store: UnlockedStore) throws {
        try GatewayActions.rejectResync(contactName: name, store: store)
        let contact = try store.read { try $0.contact(named: name) }.name
        global.makeLogger().notice("Rejected a resync request.", metadata: [LogKey.contact: "\(contact)"])
        if json {
            Output.line(try Output.json(ResyncRejected(contact: contact, rejected: true)))
        } else {
            Output.line("Resync request from \(contact) rejected; the keys are unchanged. If \(contact) did not ask, someone may hold a copy of its key state: pair again with `smsgw resync \(Shell.quote(contact)) --manual`.")
        }
    }

    /// The handshake's message id (its log id, as `send` prints one), the contact and the code.
    struct ResyncStarted: Encodable {
        var id: Int64
        var contact: String
        var code: String
    }

    struct ResyncAccepted: Encodable {
        var id: Int64
        var contact: String
        var epoch: UInt32
        var answer: String
    }

    struct ResyncRejected: Encodable {
        var contact: String
        var rejected: Bool
    }
}
