import Dispatch
import Foundation
import Logging
import Modem
import Operations
import SMSCipher
import Store
import TestSupport

@testable import Gateway

/// One gateway's services over an in-memory modem: a real store in a temporary directory with a
/// paired contact "bob" at +15550002, and bob's side of the pairing as a session in memory, to
/// seal what he sends. No pty, no libgammu: each test runs in well under a second.
///
/// `@unchecked Sendable`: bob's session is used by one test at a time, from its own task.
final class MemoryRig: @unchecked Sendable {
    static let bobNumber = "+15550002"

    /// Holds the store's data directory (`directory.url`) as long as the rig lives.
    let directory = TemporaryDirectory(prefix: "smsgw-memory")
    let store: UnlockedStore
    /// Bob's side of the pairing, to seal what he sends.
    private var bob: Session
    let modem: MemoryModem
    let link: ModemLink
    let context: GatewayContext
    private var nextIndex = 1

    /// A rig, made off Swift's cooperative pool: the account's Argon2id hash blocks its thread, and
    /// tests running side by side must not starve the services they start.
    ///
    /// - Parameters:
    ///   - ready: Whether the link starts ready, as if its supervisor had connected it.
    ///   - intervals: Timing; health checks and retries are fast by default.
    ///   - pinFile: The modem's `pin_file` setting (never read: the modem is in memory).
    ///   - outbox: When the sender gives up on a row that keeps failing temporarily.
    static func make(
        ready: Bool = true, intervals: GatewayConfiguration.Intervals = MemoryRig.fastIntervals, pinFile: String? = nil,
        outbox: OutboxSettings = OutboxSettings()
    ) async throws -> MemoryRig {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try MemoryRig(ready: ready, intervals: intervals, pinFile: pinFile, outbox: outbox) })
            }
        }
    }

    private init(ready: Bool, intervals: GatewayConfiguration.Intervals, pinFile: String?, outbox: OutboxSettings) throws {
        store = try TestStore.unlockedStore(in: directory.url)
        var rng = SystemRandomNumberGenerator()
        let mine = PairingCode.generate(using: &rng)
        let bobs = PairingCode.generate(using: &rng)
        bob = try Session.paired(mine: bobs, peer: mine)
        let session = try Session.paired(mine: mine, peer: bobs)
        try store.write { tx in
            let contact = try tx.addContact(name: "bob", number: PhoneNumber(Self.bobNumber), pairingCode: Data(mine.grouped.utf8))
            try tx.setPaired(contact, session: Data(session.storedForm()))
        }
        modem = MemoryModem(name: "m1")
        let settings = ModemSettings(name: "m1", source: .device(path: modem.device, connection: "at"), pinFile: pinFile)
        link = ModemLink(settings: settings, modem: modem)
        if ready { link.update { $0.phase = .ready } }
        context = GatewayContext(
            store: StoreRunner(store: store), intervals: intervals, resync: ResyncSettings(), links: [link], outbox: outbox,
            logger: quietLogger("smsgw.gateway.test"))
    }

    /// How long a test waits for a condition before it fails. Alone each condition holds in well
    /// under a second; in the whole suite, other targets' tests block Swift's cooperative pool
    /// (synchronous process waits, Argon2id) for long stretches, and the services wait their turn.
    static let patience = Duration.seconds(60)

    static let fastIntervals = GatewayConfiguration.Intervals(
        pollSeconds: 60, healthSeconds: 0.2, retryBaseSeconds: 0.1, retryMaxSeconds: 0.2, resyncRetrySeconds: 60)

    /// The next storage location, as a SIM would hand them out.
    func nextLocation() -> StoredMessage.Location {
        defer { nextIndex += 1 }
        return StoredMessage.Location(folder: 1, index: nextIndex, memory: .sim)
    }

    /// An SMS from `number` with `text`, at the next location.
    func sms(
        _ text: String, from number: String = MemoryRig.bobNumber, concatenation: StoredMessage.Concatenation? = nil,
        fingerprint: String = UUID().uuidString
    ) -> StoredMessage {
        StoredMessage(
            location: nextLocation(), number: number, text: text, coding: .gsm7, timestamp: nil,
            concatenation: concatenation, deliveryStatus: nil, messageReference: nil, fingerprint: fingerprint)
    }

    /// The 160 characters bob's gateway would send for `text`; his session moves on.
    func sealedByBob(_ text: String) throws -> String {
        var rng = SystemRandomNumberGenerator()
        let sealed = try bob.sealing(text, using: &rng)
        bob = sealed.session
        return sealed.ciphertext
    }

    /// A status report for the SMS with `reference`.
    func statusReport(reference: Int, status: UInt8 = 0) -> StoredMessage {
        StoredMessage(
            location: nextLocation(), number: Self.bobNumber, text: "", coding: .gsm7, timestamp: nil, concatenation: nil,
            deliveryStatus: DeliveryStatus(rawValue: status), messageReference: reference, fingerprint: UUID().uuidString)
    }

    /// Incoming log rows with `status`.
    func incoming(_ status: MessageStatus) throws -> [LogEntry] { try store.incoming(status) }
}
