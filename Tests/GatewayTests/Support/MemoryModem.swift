import Foundation
import Modem
import Synchronization

/// An in-memory ``SMSModem`` for the gateway's fast tests: a storage of SMS, a record of every
/// call and every SMS sent, and failures to script, with the bookkeeping of the real modem (a
/// failure that needs recovery flags it, a lost device disconnects it, an open clears both).
final class MemoryModem: SMSModem {
    /// One call the gateway made, in order.
    enum Call: Hashable, Sendable {
        case connect, reopen, disconnect, probe, radioReset, send, storage, storageUsage, delete, status
    }

    /// One SMS the gateway sent.
    struct Sent: Hashable, Sendable {
        var text: String
        var number: String
        var statusReport: Bool
        var reference: Int
    }

    struct State {
        var devicePresent = true
        var connected = false
        var needsRecovery = false
        /// Every call fails with a timeout (an open too): a hung modem.
        var hung = false
        var failures: [Call: [ModemError]] = [:]
        var calls: [Call] = []
        var sent: [Sent] = []
        var nextReference = 1
        var listing = StorageListing()
        var usage = StorageUsage(simUsed: 0, simSize: 30, phoneUsed: 0, phoneSize: 0)
        var status = ModemStatus(signalPercent: 70, registration: .home, networkName: "Memory Net")
    }

    let name: String
    let device: String
    let events: AsyncStream<ModemEvent>
    private let sink: AsyncStream<ModemEvent>.Continuation
    let state = Mutex(State())

    init(name: String = "memory", device: String = "/dev/memory-modem") {
        self.name = name
        self.device = device
        (events, sink) = AsyncStream.makeStream(of: ModemEvent.self, bufferingPolicy: .bufferingNewest(64))
    }

    var deviceIsPresent: Bool { state.withLock { $0.devicePresent } }
    var isConnected: Bool { state.withLock { $0.connected } }
    var needsRecovery: Bool { state.withLock { $0.needsRecovery } }
    var calls: [Call] { state.withLock { $0.calls } }
    var sent: [Sent] { state.withLock { $0.sent } }
    var stored: [StoredMessage] { state.withLock { $0.listing.messages } }

    func update(_ body: (inout State) -> Void) { state.withLock { body(&$0) } }

    /// The next `times` calls of `call` fail with `error`.
    func fail(_ call: Call, with error: ModemError, times: Int = 1) {
        state.withLock { $0.failures[call, default: []] += Array(repeating: error, count: times) }
    }

    /// Puts `sms` in storage and announces it, as a +CMTI does.
    func deliver(_ sms: StoredMessage) {
        state.withLock { $0.listing.messages.append(sms) }
        sink.yield(.newMessage)
    }

    /// Announces an event as the modem would.
    func announce(_ event: ModemEvent) { sink.yield(event) }

    /// Records `call` and throws its scripted failure, if any, as the real modem would fail.
    private func enter(_ call: Call) throws(ModemError) {
        let failure = state.withLock { s -> ModemError? in
            s.calls.append(call)
            if s.hung { return ModemError(.timeout, "The memory modem is hung.") }
            if s.failures[call]?.isEmpty == false { return s.failures[call]?.removeFirst() }
            return nil
        }
        guard let failure else { return }
        state.withLock {
            if failure.needsRecovery { $0.needsRecovery = true }
            if failure.code == .deviceGone || failure.code == .deviceNotFound { $0.connected = false }
        }
        throw failure
    }

    func connect() async throws(ModemError) {
        try enter(.connect)
        try open()
    }

    func reopen() async throws(ModemError) {
        try enter(.reopen)
        try open()
    }

    private func open() throws(ModemError) {
        try state.withLock { s throws(ModemError) in
            guard s.devicePresent else { throw ModemError(.deviceNotFound, "The memory modem is unplugged.") }
            s.connected = true
            s.needsRecovery = false
        }
    }

    func disconnect() async {
        state.withLock {
            $0.calls.append(.disconnect)
            $0.connected = false
        }
    }

    func probe(timeout: Duration) async throws(ModemError) { try enter(.probe) }

    func radioReset() async throws(ModemError) { try enter(.radioReset) }

    func send(text: String, to number: String, statusReport: Bool) async throws(ModemError) -> Int {
        try enter(.send)
        return state.withLock { s in
            defer { s.nextReference += 1 }
            s.sent.append(Sent(text: text, number: number, statusReport: statusReport, reference: s.nextReference))
            return s.nextReference
        }
    }

    func storage() async throws(ModemError) -> StorageListing {
        try enter(.storage)
        return state.withLock { $0.listing }
    }

    func storageUsage() async throws(ModemError) -> StorageUsage {
        try enter(.storageUsage)
        return state.withLock { $0.usage }
    }

    func delete(_ location: StoredMessage.Location) async throws(ModemError) {
        try enter(.delete)
        state.withLock { s in
            s.listing.messages.removeAll { $0.location == location }
            s.listing.outboxCopies.removeAll { $0 == location }
            s.listing.unreadable.removeAll { $0.location == location }
        }
    }

    func status() async throws(ModemError) -> ModemStatus {
        try enter(.status)
        return state.withLock { $0.status }
    }
}
