import Foundation
import Logging
import Operations
import ServiceLifecycle
import Store
import Synchronization
import TestSupport
import Testing

@testable import Gateway

/// The outbox sender while the store refuses the record of an SMS that left: through an outage
/// longer than the node's lease, and when asked to stop meanwhile.
@Suite("Outbox sender: a sent SMS the store cannot record")
struct OutboxStopTests {
    /// An outbox sender over `rig` as the node `local` with `leaseSeconds`, logging into `lines`,
    /// whose store refuses to record any SMS as sent; one text to bob is queued.
    private static func refusingSender(
        _ rig: MemoryRig, leaseSeconds: Double, lines: CapturingLogHandler.Lines
    ) throws -> (group: ServiceGroup, queued: QueuedMessage) {
        let context = GatewayContext(
            store: rig.context.store, intervals: MemoryRig.fastIntervals, resync: ResyncSettings(), links: [rig.link],
            node: GatewayNode(name: "local", healthSeconds: 30, leaseSeconds: leaseSeconds),
            logger: Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) })
        try rig.refuseWrites("UPDATE", on: "outbox", when: "NEW.state = 'sent'")
        let queued = try Messages.queue("sent while the store refuses writes", to: "bob", store: rig.store)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [OutboxSender(context: context)], gracefulShutdownSignals: [], logger: quietLogger("smsgw.gateway.test")))
        return (group, queued)
    }

    @Test("A stop gives up recording a sent SMS long before the lease ends; the row stays submitting and the log says so")
    func aStopGivesUpTheRecord() async throws {
        let rig = try await MemoryRig.make()
        let lines = CapturingLogHandler.Lines()
        // A long lease: the record was retried that long after a stop, past systemd's 90 s stop timeout.
        let (group, queued) = try Self.refusingSender(rig, leaseSeconds: 150, lines: lines)
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

    /// The node's heartbeats renew the lease of every row it is submitting: a record given up at
    /// the lease left the row submitting, renewed, for as long as the daemon ran.
    @Test("A sent SMS is recorded as sent once the store takes writes again, however long past the lease")
    func theRecordOutlastsTheLease() async throws {
        let rig = try await MemoryRig.make()
        let lines = CapturingLogHandler.Lines()
        let (group, queued) = try Self.refusingSender(rig, leaseSeconds: 2, lines: lines)
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
