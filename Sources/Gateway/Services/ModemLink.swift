import Foundation
import Logging
import Modem
import Store
import Synchronization

/// One modem as the gateway's services share it: the driver (any ``Modem/SMSModem``), its phase and
/// counters, and the flags other services raise (recovery wanted, inbox to read).
///
/// Phase and last error are written by the modem's ``ModemSupervisor`` alone, from its
/// ``RecoveryLadder``; other services ask for recovery with a reason, which the ladder takes over.
///
/// `Sendable`: the mutable part sits behind a `Mutex`; modem calls go through ``call(_:)`` one at a time.
final class ModemLink: Sendable {
    struct State {
        var phase: ModemPhase = .connecting
        /// When the phase last left ready; nil while ready, or never ready yet.
        var leftReadyAt: Date?
        var signalPercent: Int?
        var networkOperator: String?
        var lastError: String?
        var sent = 0
        var received = 0
        /// Why another service asked for recovery (the failed call's sentence), until the supervisor takes it.
        var recoveryRequest: String?
        var inboxRequested = true
        /// Whether the last scan left SMS on the modem to read again (a report for an SMS still
        /// being recorded, or the store refused one): a write elsewhere rings the receiver then.
        var retryPending = false
        /// Fingerprints of processed SMS whose deletion from the modem failed.
        var undeleted: Set<String> = []
        /// SMS the modem handed over directly (+CMT), waiting to be processed: their only copy.
        var direct: [StoredMessage] = []
        /// Whether the modem said its storage is full since the last scan.
        var storageFullReported = false
        /// When the daemon last heard from the modem: a call it answered (a probe, a read of its
        /// storage, a send), or an SMS or report it announced; nil until then.
        var heardAt: Date?
    }

    let name: String
    /// The node whose daemon drives the modem, as its status row says.
    let node: String?
    let settings: ModemSettings
    let modem: any SMSModem
    private let state = Mutex(State())
    private let gate = AsyncGate()
    /// Rung by ``requestInboxScan()`` so the inbox receiver wakes at once, not at its next poll.
    let inboxBell = WakeSignal()
    /// Wakes this modem's outbox worker: a row was queued, or a modem's readiness changed.
    let outboxBell = WakeSignal()
    /// Wakes the supervisor while it serves: another service asked for recovery.
    let recoveryBell = WakeSignal()

    /// When the link was made: the status's time for a modem never heard from.
    let createdAt: Date

    init(settings: ModemSettings, modem: any SMSModem, node: String? = nil, now: Date = Date()) {
        self.name = settings.name
        self.node = node
        self.settings = settings
        self.modem = modem
        self.createdAt = now
    }

    /// Notes that the modem answered or announced something.
    func heard(now: Date = Date()) {
        state.withLock { $0.heardAt = now }
    }

    var snapshot: State { state.withLock { $0 } }
    var phase: ModemPhase { state.withLock { $0.phase } }
    var isReady: Bool { state.withLock { $0.phase == .ready && $0.recoveryRequest == nil } }

    func update(_ body: (inout State) -> Void) { state.withLock { body(&$0) } }

    /// Enters `phase` with `lastError`, noting the moment the modem stops being ready.
    func enter(_ phase: ModemPhase, lastError: String?, now: Date) {
        state.withLock { s in
            if phase == .ready {
                s.leftReadyAt = nil
            } else if s.phase == .ready {
                s.leftReadyAt = now
            }
            s.phase = phase
            s.lastError = lastError
        }
    }

    /// Asks the supervisor to run the recovery ladder; `error` becomes the modem's last error.
    func requestRecovery(because error: ModemError) {
        state.withLock { $0.recoveryRequest = error.description }
        recoveryBell.ring()
    }

    /// Asks the inbox receiver to read the modem's storage now.
    func requestInboxScan() {
        state.withLock { $0.inboxRequested = true }
        inboxBell.ring()
    }

    /// Keeps an SMS the modem delivered directly (+CMT) for the inbox receiver and rings it.
    func receiveDirect(_ sms: StoredMessage) {
        state.withLock { $0.direct.append(sms) }
        requestInboxScan()
    }

    /// Notes that the modem said its storage is full, and rings the inbox receiver.
    func reportStorageFull() {
        state.withLock { $0.storageFullReported = true }
        requestInboxScan()
    }

    /// Takes the storage-full report (true once per report).
    func takeStorageFullReport() -> Bool {
        state.withLock { s in
            defer { s.storageFullReported = false }
            return s.storageFullReported
        }
    }

    /// Takes the directly delivered SMS kept so far.
    func takeDirect() -> [StoredMessage] {
        state.withLock { s in
            defer { s.direct.removeAll() }
            return s.direct
        }
    }

    /// Takes the inbox request flag (true once per request).
    func takeInboxRequest() -> Bool {
        state.withLock { s in
            defer { s.inboxRequested = false }
            return s.inboxRequested
        }
    }

    /// Takes the recovery request: the reason given, or nil when none is pending.
    func takeRecoveryRequest() -> String? {
        state.withLock { s in
            defer { s.recoveryRequest = nil }
            return s.recoveryRequest
        }
    }

    /// Runs one modem call, never two at once on this modem.
    func call<T: Sendable>(_ body: @Sendable (any SMSModem) async throws -> T) async throws -> T {
        await gate.acquire()
        do {
            let value = try await body(modem)
            heard()
            await gate.release()
            return value
        } catch {
            await gate.release()
            throw error
        }
    }

    /// The record `smsgw status` shows; its `updatedAt` is when the daemon last heard from the
    /// modem (when the link was made, for one never heard from), so a silent modem shows stale.
    var record: ModemStatusRecord {
        let s = snapshot
        // Signal and operator were read while the modem was ready; in any other phase they are stale.
        let ready = s.phase == .ready
        return ModemStatusRecord(
            name: name, state: s.phase, connected: ready, signalPercent: ready ? s.signalPercent : nil,
            networkOperator: ready ? s.networkOperator : nil, lastError: s.lastError, sentCount: s.sent, receivedCount: s.received,
            updatedAt: s.heardAt ?? createdAt, node: node, leftReadyAt: s.leftReadyAt)
    }
}
