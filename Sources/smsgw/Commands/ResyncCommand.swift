import ArgumentParser
import Foundation
import Logging
import Operations
import Store
import TerminalIO

/// `smsgw resync`: a resynchronisation handshake over SMS through the daemon, or a manual re-pairing.
struct ResyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resync",
        abstract: "Resynchronise with a contact over SMS; --manual prints a new pairing code.",
        discussion: """
            Without options the handshake is queued for the daemon, which sends it until the contact's \
            gateway answers; it prints the message id and a six-digit code to read to the contact. \
            --accept and --reject decide on the contact's request once its code matches; --manual prints \
            a new pairing code to exchange in person, completed by `smsgw contact pair NAME` with theirs. \
            See docs/CLI.md.
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

    @Flag(
        help: """
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
        // Also how a code lost before pairing is replaced: then there is no session to keep.
        let hadSession = try Contacts.contact(named: name, store: store).epoch != nil
        let rePairing = try Contacts.startRePairing(name, store: store, using: &rng)
        let contact = rePairing.name
        global.makeLogger().info("Started a manual re-pairing.", metadata: [LogKey.contact: "\(contact)"])
        if json {
            Output.line(try Output.json(rePairing))
        } else {
            Output.line(rePairing.pairingCode)
            Output.line(
                "Give this new code to \(contact) in person (not by phone call or SMS, which the same network carries: the codes are the new keys' secret), then enter theirs with `smsgw contact pair \(Shell.quote(contact))`; "
                    + (hadSession
                        ? "until then the current session keeps working."
                        : "it replaces the code shown before, which no longer pairs.")
            )
        }
    }

    /// Queues the handshake for the daemon and says what happens next.
    private func startOverSMS(store: UnlockedStore) throws {
        var rng = SystemRandomNumberGenerator()
        let started = try Resync.start(with: name, restart: restart, store: store, now: Date(), using: &rng)
        Daemon.wake(in: global.dataDirectory)
        let contact = started.contact
        global.makeLogger().info("Started a resync over SMS.", metadata: [LogKey.contact: "\(contact)"])
        if json {
            Output.line(try Output.json(started))
        } else {
            Output.line("\(started.logID)")
            Output.line(
                "Resync with \(contact) started (code \(started.code)): read the code to \(contact), whose operator accepts the request once the codes match. The daemon sends the handshake and repeats it until \(contact)'s gateway answers; `smsgw status` shows \"resync pending\" until then, and messages flow again on fresh keys after."
            )
        }
        if !SendCommand.daemonRuns(global) {
            Output.warning("no gateway daemon is running on this data directory; the handshake stays queued until `smsgw serve` runs.")
        }
    }

    /// Completes the contact's request and queues (or prints) the answer.
    private func acceptRequest(store: UnlockedStore) throws {
        var rng = SystemRandomNumberGenerator()
        let accepted = try Resync.accept(from: name, store: store, now: Date(), using: &rng)
        if accepted.outboxID != nil { Daemon.wake(in: global.dataDirectory) }
        let contact = accepted.contact
        global.makeLogger().notice(
            "Accepted a resync request.", metadata: [LogKey.contact: "\(contact)", LogKey.epoch: "\(accepted.epoch)"])
        if json {
            Output.line(try Output.json(accepted))
            return
        }
        guard accepted.outboxID != nil else {
            Output.line(accepted.answer)
            Output.diagnostic(
                "Resync with \(contact) accepted: new keys in force (epoch \(accepted.epoch)); send the printed answer to \(contact).")
            return
        }
        Output.line("\(accepted.logID)")
        Output.line(
            "Resync with \(contact) accepted: new keys in force (epoch \(accepted.epoch)); the daemon sends the answer, and \(contact)'s gateway switches when it arrives."
        )
        if accepted.openedFromQuarantine > 0 {
            Output.line("\(accepted.openedFromQuarantine) kept messages from \(contact) opened with the new keys; see `smsgw log`.")
        }
        if !SendCommand.daemonRuns(global) {
            Output.warning("no gateway daemon seems to be running; the answer stays queued until `smsgw serve` runs.")
        }
    }

    private func rejectRequest(store: UnlockedStore) throws {
        let rejected = try Resync.reject(from: name, store: store, now: Date())
        let contact = rejected.contact
        global.makeLogger().notice("Rejected a resync request.", metadata: [LogKey.contact: "\(contact)"])
        if json {
            Output.line(try Output.json(rejected))
        } else {
            Output.line(
                "Resync request from \(contact) rejected; the keys are unchanged. If \(contact) did not ask, someone may hold a copy of its key state: pair again with `smsgw resync \(Shell.quote(contact)) --manual`."
            )
        }
    }
}
