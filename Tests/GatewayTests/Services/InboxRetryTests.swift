import Foundation
import Logging
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The inbox receiver while what it reads cannot be recorded yet: a status report for an SMS
/// still being recorded as sent, or a store that refuses writes (a full disk). It must pause
/// between reads rather than read the modem again at once (which looped at full CPU, logging
/// the same failure a hundred times a second), and read again as soon as what it waits for came.
///
/// The receiver and the test's waits run on an executor of their own: in a full run the other
/// targets' tests hold the cooperative pool's threads for minutes, and each of the receiver's hops
/// waited behind them (this test took 305 s there, a second alone).
@Suite("Inbox receiver: pauses while SMS cannot be recorded", .dedicatedExecutor)
struct InboxRetryTests {
    /// A context over the rig's store and modem whose log lines are kept; health checks every 5 s,
    /// so the receiver's pauses run 1 s, 2 s, 4 s, 5 s.
    static func context(_ rig: MemoryRig, lines: CapturingLogHandler.Lines) -> GatewayContext {
        let intervals = GatewayConfiguration.Intervals(
            pollSeconds: 60, healthSeconds: 5, retryBaseSeconds: 0.1, retryMaxSeconds: 0.2, resyncRetrySeconds: 60)
        return GatewayContext(
            store: rig.context.store, intervals: intervals, resync: ResyncSettings(), links: [rig.link],
            logger: Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) })
    }

    /// How many times the receiver read the modem's storage.
    static func reads(_ rig: MemoryRig) -> Int { rig.modem.calls.filter { $0 == .storage }.count }

    /// A status report (reference 9) on the modem for an SMS claimed but not yet recorded as sent.
    /// - Returns: Its queued message.
    static func reportBeforeItsRecord(_ rig: MemoryRig) throws -> QueuedMessage {
        let queued = try Messages.queue("in flight", to: "bob", store: rig.store)
        _ = try rig.store.write { tx in try tx.claimNextOutbox(modem: "m1") }
        rig.modem.deliver(rig.statusReport(reference: 9))
        return queued
    }

    /// Starts the receiver on the test's executor and waits until its first scan left something to retry.
    static func startAndAwaitRetry(_ context: GatewayContext, rig: MemoryRig) async throws -> Task<Void, any Error> {
        let executor = try #require(DedicatedExecutor.current)
        let receiver = Task(executorPreference: executor) { try await InboxReceiver(context: context).run() }
        rig.link.requestInboxScan()  // as the modem's supervisor does when the modem is ready
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.snapshot.retryPending })
        return receiver
    }

    @Test("A report for an SMS still being recorded is read again after a pause, and at once when its row is recorded")
    func aDeferredReportWaitsForItsRow() async throws {
        let rig = try await MemoryRig.make()
        let context = Self.context(rig, lines: CapturingLogHandler.Lines())
        let queued = try Self.reportBeforeItsRecord(rig)
        let receiver = try await Self.startAndAwaitRetry(context, rig: rig)

        // Reading again at once read the modem thousands of times in this half second.
        try await Task.sleep(for: .milliseconds(500))
        #expect(Self.reads(rig) <= 3, "\(Self.reads(rig)) reads")
        #expect(rig.modem.stored.count == 1)

        // The outbox sender records the row and says so: the report is read long before the pause ends.
        try rig.store.write { tx in try tx.markOutboxSent(queued.outboxID, reference: 9, modem: "m1") }
        context.storeWrote()
        #expect(
            await eventually(timeout: MemoryRig.patience) {
                try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .delivered
            })
        // The report is deleted from the modem after its outcome is committed, so wait for that too.
        #expect(await eventually(timeout: MemoryRig.patience) { rig.modem.stored.isEmpty })
        receiver.cancel()
        _ = try? await receiver.value
    }

    @Test(
        "While the store refuses received SMS, the receiver pauses between reads and logs once per pause; a write elsewhere brings it back")
    func aRefusingStoreIsRetriedAfterPauses() async throws {
        let rig = try await MemoryRig.make()
        let lines = CapturingLogHandler.Lines()
        let context = Self.context(rig, lines: lines)
        try rig.refuseWrites("INSERT", on: "received_pdus")  // every received SMS records its fingerprint
        rig.modem.deliver(rig.sms(try rig.sealedByBob("kept on the modem")))
        rig.modem.deliver(rig.sms("plain, kept too", from: "+15559999"))
        // As on a full disk: the SMS the sender submitted cannot be recorded as sent, so its
        // report waits too.
        _ = try Self.reportBeforeItsRecord(rig)
        let receiver = try await Self.startAndAwaitRetry(context, rig: rig)

        try await Task.sleep(for: .milliseconds(500))
        let failures = lines.all.filter { $0.hasPrefix("error") && $0.contains("received SMS") }
        #expect(Self.reads(rig) <= 3, "\(Self.reads(rig)) reads")
        #expect((1...3).contains(failures.count), "\(failures)")
        #expect(failures.first?.contains(#"smsgw.count": 2"#) == true, "\(failures)")
        #expect(rig.modem.stored.count == 3)

        // Space is back and another service's write succeeds: the SMS are recorded at once.
        try rig.acceptWrites()
        context.storeWrote()
        #expect(await eventually(timeout: MemoryRig.patience) { rig.modem.stored.count == 1 })
        #expect(try rig.incoming(.decrypted).map(\.text) == ["kept on the modem"])
        #expect(await eventually(timeout: MemoryRig.patience) { lines.all.contains { $0.contains("recorded again") } })
        #expect(rig.link.snapshot.retryPending, "the report still waits for its row")
        receiver.cancel()
        _ = try? await receiver.value
    }

    @Test("An unreadable entry and a concatenated SMS the store refuses are said once while it refuses them, and once when it takes them")
    func refusedEntriesAreSaidOnce() async throws {
        let rig = try await MemoryRig.make()
        let lines = CapturingLogHandler.Lines()
        let context = Self.context(rig, lines: lines)
        try rig.refuseWrites("INSERT", on: "received_pdus")  // each records its fingerprint
        let entry = UnreadableEntry(location: rig.nextLocation(), evidence: ["0791ZZZZ"], reason: "ERR_CORRUPTED", fingerprint: "bad-entry")
        rig.modem.update { $0.listing.unreadable.append(entry) }
        rig.modem.deliver(rig.sms("world", from: "+15559998", concatenation: .init(reference: 3, part: 2, total: 2)))
        rig.modem.deliver(rig.sms("hello ", from: "+15559998", concatenation: .init(reference: 3, part: 1, total: 2)))
        let executor = try #require(DedicatedExecutor.current)
        let receiver = Task(executorPreference: executor) { try await InboxReceiver(context: context).run() }
        // Five reads: the first four have said what they had to say by the time the fifth lists.
        for scan in 1...5 {
            rig.link.requestInboxScan()
            #expect(await eventually(timeout: MemoryRig.patience) { Self.reads(rig) >= scan })
        }
        let unreadable = lines.all.filter { $0.contains("Could not log an unreadable entry") }
        let concatenated = lines.all.filter { $0.contains("Could not process a concatenated SMS") }
        #expect(unreadable.count == 1 && unreadable.first?.hasPrefix("error") == true, "\(unreadable)")
        #expect(concatenated.count == 1 && concatenated.first?.contains("full") == true, "\(concatenated)")
        #expect(rig.modem.stored.count == 2)

        try rig.acceptWrites()
        rig.link.requestInboxScan()
        #expect(await eventually(timeout: MemoryRig.patience) { rig.modem.stored.isEmpty && rig.modem.calls.contains(.storage) })
        #expect(await eventually(timeout: MemoryRig.patience) { lines.all.contains { $0.contains("Unreadable entries are logged again") } })
        #expect(lines.all.contains { $0.contains("Concatenated SMS are processed again") })
        #expect(try rig.incoming(.unreadable).count == 1 && rig.incoming(.plain).map(\.text) == ["hello world"])
        receiver.cancel()
        _ = try? await receiver.value
    }

    @Test("The pause doubles from 1 s up to the health interval, and a clean scan starts it over")
    func thePauseBacksOff() {
        var retry = InboxRetry(healthSeconds: 5)
        let logger = quietLogger("smsgw.gateway.test")
        var pauses: [Duration] = []
        for _ in 0..<5 {
            let before = ContinuousClock.now
            retry.note(InboxLeftovers(failed: 1, error: "full"), logger: logger)
            pauses.append(retry.due.map { $0 - before } ?? .zero)
        }
        #expect(pauses.map { Int(($0 / .milliseconds(500)).rounded()) } == [2, 4, 8, 10, 10])
        retry.note(InboxLeftovers(), logger: logger)
        #expect(retry.due == nil && !retry.failing)
        #expect(retry.step == .seconds(1))
    }
}
