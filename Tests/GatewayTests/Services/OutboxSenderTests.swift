import Foundation
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The outbox sender over an in-memory modem: what goes out, and what each outcome does to the row.
@Suite("Outbox sender over an in-memory modem")
struct OutboxSenderTests {
    /// Queues `text` to bob and runs the sender until `condition` holds for its row; the row afterwards.
    static func send(
        _ text: String, rig: MemoryRig, timeout: Duration = MemoryRig.patience, until condition: @escaping @Sendable (OutboxItem) -> Bool
    ) async throws -> (item: OutboxItem, met: Bool) {
        let queued = try Messages.queue(text, to: "bob", store: rig.store)
        let met = await run(rig, timeout: timeout) { condition(try rig.store.read { try $0.outboxItem(id: queued.outboxID) }) }
        return (try rig.store.read { try $0.outboxItem(id: queued.outboxID) }, met)
    }

    /// Runs the sender until `condition` holds or `timeout` passes; whether it held.
    static func run(_ rig: MemoryRig, timeout: Duration = MemoryRig.patience, until condition: () throws -> Bool) async -> Bool {
        let sender = OutboxSender(context: rig.context)
        let task = Task { try await sender.run() }
        let met = await eventually(timeout: timeout) { try condition() }
        task.cancel()
        _ = try? await task.value
        return met
    }

    @Test func aQueuedTextGoesOutOnceAndIsMarkedSentWithItsReference() async throws {
        let rig = try await MemoryRig.make()
        let (item, met) = try await Self.send("hello bob", rig: rig) { $0.state == .sent }
        #expect(met)
        let sent = try #require(rig.modem.sent.first)
        #expect(rig.modem.sent.count == 1)
        #expect(sent.text == item.body && sent.text.count == 160)
        #expect(sent.number == MemoryRig.bobNumber && sent.statusReport)
        #expect(item.messageReference == sent.reference && item.modem == "m1")
        #expect(rig.link.snapshot.sent == 1)
    }

    @Test func aPermanentRefusalFailsTheRowAndIsNotRetried() async throws {
        let rig = try await MemoryRig.make()
        rig.modem.fail(.send, with: ModemError(.sendRejected, "The network refused the number.", cmsError: 21), times: 5)
        let (item, met) = try await Self.send("to a bad number", rig: rig) { $0.state == .failed }
        #expect(met)
        #expect(item.lastErrorIsPermanent && item.attempts == 1)
        #expect(item.lastError?.contains("CMS ERROR 21") == true)
        #expect(rig.modem.calls.filter { $0 == .send }.count == 1)
        #expect(rig.link.takeRecoveryRequest() == nil)
    }

    /// CMS 42 is congestion; 302 and 304, a modem refusing a PDU that was checked before it went
    /// out, are an exchange out of step on a loaded machine, not a wrong SMS.
    @Test(arguments: [42, 302, 304])
    func aTemporaryErrorIsRetriedWithTheSameBody(cms: Int) async throws {
        let rig = try await MemoryRig.make()
        rig.modem.fail(.send, with: ModemError(.sendRejected, "The SMS was refused.", cmsError: cms))
        let (item, met) = try await Self.send("try again", rig: rig) { $0.state == .sent }
        #expect(met)
        #expect(item.attempts == 2)
        #expect(rig.modem.calls.filter { $0 == .send }.count == 2)
        #expect(rig.modem.sent.map(\.text) == [item.body])
        #expect(rig.link.takeRecoveryRequest() == nil)
    }

    @Test func anAmbiguousSendRequeuesTheSameBodyAndAsksForRecovery() async throws {
        let rig = try await MemoryRig.make()
        let ambiguous = ModemError(.ambiguousSend, "The SMS may have gone out.")
        rig.modem.fail(.send, with: ambiguous)
        let (item, met) = try await Self.send("maybe sent", rig: rig) { $0.state == .queued && $0.attempts == 1 }
        #expect(met)
        #expect(item.lastErrorIsPermanent == false)
        // The modem is not used again until its supervisor recovered it.
        #expect(!rig.link.isReady)
        #expect(rig.link.takeRecoveryRequest() == ambiguous.description)
        // Recovered: the same stored body goes out, never a new encryption.
        #expect(await Self.run(rig) { try rig.store.read { try $0.outboxItem(id: item.id) }.state == .sent })
        #expect(rig.modem.sent.map(\.text) == [item.body])
    }

    @Test func nothingIsSentWhileTheModemIsNotReady() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let (item, met) = try await Self.send("wait for it", rig: rig, timeout: .milliseconds(300)) { $0.state != .queued }
        #expect(!met && item.state == .queued)
        #expect(rig.modem.calls.isEmpty)
    }

    @Test func anIdleSenderSleepsUntilWokenAndThenClaimsAtOnce() async throws {
        // A fallback of an hour: only the wake can bring the row out within the test.
        let slow = GatewayConfiguration.Intervals(pollSeconds: 3600, healthSeconds: 3600, retryBaseSeconds: 1, retryMaxSeconds: 1)
        let rig = try await MemoryRig.make(intervals: slow)
        let sender = OutboxSender(context: rig.context)
        let task = Task { try await sender.run() }
        defer { task.cancel() }
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.outboxBell.hasWaiter })

        // Queued without a wake (as by a process that could not reach the daemon): it waits.
        let unannounced = try Messages.queue("not announced", to: "bob", store: rig.store)
        try await Task.sleep(for: .seconds(1))
        #expect(try rig.store.read { try $0.outboxItem(id: unannounced.outboxID) }.state == .queued)
        #expect(rig.modem.calls.isEmpty)

        // The wake brings it and the next one out, with no poll in between.
        let announced = try Messages.queue("announced", to: "bob", store: rig.store)
        rig.context.outboxWake.wake()
        let sent = await eventually(timeout: MemoryRig.patience) {
            try rig.store.read { tx in
                try [unannounced.outboxID, announced.outboxID].allSatisfy { try tx.outboxItem(id: $0).state == .sent }
            }
        }
        #expect(sent)
    }
}
