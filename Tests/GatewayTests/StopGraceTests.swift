import Foundation
import Gateway
import Logging
import Operations
import Store
import Synchronization
import TestSupport
import Testing

/// The daemon's graceful stop while the store does not answer (a write blocked behind a lock, a
/// PostgreSQL server that hangs): the stop waits for it the grace at most, not for ever.
@Suite("Gateway stop while a store write hangs")
struct StopGraceTests {
    @Test("A stop while the store's writer hangs ends after the grace; a claimed row stays submitting and the log says so")
    func aHangingWriteDoesNotHoldTheStop() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let modem = rig.modem
        let lines = CapturingLogHandler.Lines()
        let configuration = GatewayConfiguration(
            dataDirectory: rig.directory.url, intervals: MemoryRig.fastIntervals,
            modems: [ModemSettings(name: "m1", source: .device(path: modem.device, connection: "at"))])
        let gateway = try Gateway(
            store: rig.store, configuration: configuration,
            logger: Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) }, handlesSignals: false,
            makeModem: { _, _, _ in modem })
        let running = Task { try await gateway.run() }
        #expect(await eventually(timeout: MemoryRig.patience) { try GatewayStatus.read(from: rig.store).hasReadyModem })
        // A row another node's sender claimed: the stop must leave it as it is.
        let queued = try Messages.queue("in flight elsewhere", to: "bob", store: rig.store)
        _ = try rig.store.write { tx in try tx.claimNextOutbox(modem: "elsewhere") }

        // A transaction of this process holds the store's one writer until the test lets go:
        // every write of the gateway waits behind it, as behind a hung server.
        let held = Mutex(false)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? rig.store.write { _ in
                held.withLock { $0 = true }
                release.wait()
            }
        }
        #expect(await eventually(timeout: MemoryRig.patience) { held.withLock { $0 } })

        await gateway.shutdown()  // the supervisor's last status and the node's stop are writes
        let stopped = Mutex(false)
        let waiter = Task {
            _ = try? await running.value
            stopped.withLock { $0 = true }
        }
        let ended = await eventually(timeout: MemoryRig.patience) { stopped.withLock { $0 } }
        let state = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state
        release.signal()
        await waiter.value
        #expect(ended, "the stop waited for the hanging write")
        #expect(state == .submitting)
        #expect(
            lines.all.contains { $0.hasPrefix("error") && $0.contains("Stopping without waiting for store writes") },
            "\(lines.all.suffix(5))")
    }
}
