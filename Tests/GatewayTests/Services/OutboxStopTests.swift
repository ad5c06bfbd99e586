import Foundation
import Logging
import Operations
import ServiceLifecycle
import Store
import Synchronization
import TestSupport
import Testing

@testable import Gateway

/// The outbox sender asked to stop while the store refuses the record of an SMS that left.
@Suite("Outbox sender: a stop while a sent SMS cannot be recorded")
struct OutboxStopTests {
    @Test("A stop gives up recording a sent SMS long before the lease ends; the row stays submitting and the log says so")
    func aStopGivesUpTheRecord() async throws {
        let rig = try await MemoryRig.make()
        let lines = CapturingLogHandler.Lines()
        // A long lease: the record was retried that long after a stop, past systemd's 90 s stop timeout.
        let context = GatewayContext(
            store: rig.context.store, intervals: MemoryRig.fastIntervals, resync: ResyncSettings(), links: [rig.link],
            node: GatewayNode(name: "local", healthSeconds: 30, leaseSeconds: 150),
            logger: Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) })
        try rig.refuseWrites("UPDATE", on: "outbox", when: "NEW.state = 'sent'")
        let queued = try Messages.queue("sent, never recorded", to: "bob", store: rig.store)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [OutboxSender(context: context)], gracefulShutdownSignals: [], logger: quietLogger("smsgw.gateway.test")))
        let stopped = Atomic(false)
        let running = Task {
            try await group.run()
            stopped.store(true, ordering: .sequentiallyConsistent)
        }
        #expect(await eventually(timeout: MemoryRig.patience) { lines.all.contains { $0.contains("Could not record a sent SMS yet") } })

        await group.triggerGracefulShutdown()
        #expect(await eventually(timeout: MemoryRig.patience) { stopped.load(ordering: .sequentiallyConsistent) })
        #expect(lines.all.contains { $0.hasPrefix("error Stopping before a sent SMS could be recorded as sent") }, "\(lines.all)")
        #expect(rig.modem.sent.count == 1)
        #expect(try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .submitting)
        running.cancel()
        _ = try? await running.value
    }
}
