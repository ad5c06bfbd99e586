import Foundation
import Logging
import Operations
import ServiceLifecycle
import Store
import Synchronization
import TestSupport
import Testing

@testable import Gateway

/// The outbox sender while the store refuses the record of an SMS that left for longer than the
/// node's lease (a PostgreSQL primary lost and its standby promoted slowly, a full disk).
@Suite("Outbox sender: a sent SMS's record through an outage longer than the lease")
struct OutboxOutageTests {
    /// The node's heartbeats renew the lease of every row it is submitting: a record given up at
    /// the lease left the row submitting, renewed, for as long as the daemon ran.
    @Test("A sent SMS is recorded as sent once the store takes writes again, however long past the lease")
    func theRecordOutlastsTheLease() async throws {
        let rig = try await MemoryRig.make()
        let lines = CapturingLogHandler.Lines()
        let context = GatewayContext(
            store: rig.context.store, intervals: MemoryRig.fastIntervals, resync: ResyncSettings(), links: [rig.link],
            node: GatewayNode(name: "local", healthSeconds: 1, leaseSeconds: 2),
            logger: Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) })
        try rig.refuseWrites("UPDATE", on: "outbox", when: "NEW.state = 'sent'")
        let queued = try Messages.queue("sent while the store refuses writes", to: "bob", store: rig.store)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [OutboxSender(context: context)], gracefulShutdownSignals: [], logger: quietLogger("smsgw.gateway.test")))
        let running = Task { try await group.run() }
        let retries = { lines.all.filter { $0.contains("Could not record a sent SMS yet") }.count }
        // Tried at once, after 1 s and after 2 more: the third try comes past the 2 s lease.
        #expect(await eventually(timeout: MemoryRig.patience) { retries() >= 3 }, "\(lines.all)")
        #expect(try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .submitting)

        try rig.acceptWrites()
        #expect(
            await eventually(timeout: MemoryRig.patience) {
                try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .sent
            })
        #expect(rig.modem.sent.count == 1, "the SMS left once")
        #expect(!lines.all.contains { $0.contains("Could not record a sent SMS.") }, "\(lines.all)")
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
