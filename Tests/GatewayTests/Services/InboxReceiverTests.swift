import Foundation
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The inbox receiver and incoming processor over an in-memory modem: what each SMS becomes in the
/// store, and that it leaves the modem only after that was committed.
@Suite("Inbox receiver over an in-memory modem")
struct InboxReceiverTests {
    static func scan(_ rig: MemoryRig) async {
        await InboxReceiver(context: rig.context).scan(rig.link, logger: quietLogger("smsgw.gateway.test"))
    }

    @Test func aVerifiedMessageIsCommittedThenDeletedFromTheModem() async throws {
        let rig = try await MemoryRig.make()
        rig.modem.deliver(rig.sms(try rig.sealedByBob("meet at noon")))
        await Self.scan(rig)
        #expect(try rig.incoming(.decrypted).map(\.text) == ["meet at noon"])
        #expect(rig.modem.stored.isEmpty)
        #expect(rig.modem.calls == [.storage, .delete])
        #expect(rig.link.snapshot.received == 1)
    }

    @Test("Each SMS that becomes a log row counts its time from arrival to the commit; a status report does not")
    func arrivalToLogIsMeasured() async throws {
        let rig = try await MemoryRig.make()
        #expect(rig.context.arrivals.snapshot().count == 0)
        rig.modem.deliver(rig.sms(try rig.sealedByBob("first")))
        rig.modem.deliver(rig.sms(try rig.sealedByBob("second")))
        await Self.scan(rig)
        let figures = rig.context.arrivals.snapshot()
        // How long the two took depends on the machine's load (a loaded CI runner has taken over
        // 10 s): only the count and the histogram's shape are asserted here, the buckets below.
        #expect(figures.count == 2 && figures.sum > 0)
        #expect(figures.atMost.allSatisfy { $0 <= 2 })
        #expect(zip(figures.atMost, figures.atMost.dropFirst()).allSatisfy { $0 <= $1 }, "the buckets are cumulative")
    }

    @Test("Arrival durations fall into every bound at least as long as they took, cumulatively")
    func arrivalBucketsAreCumulative() {
        let latency = ArrivalLatency()
        latency.record(.milliseconds(3))
        latency.record(.milliseconds(30))
        latency.record(.seconds(2))
        latency.record(.seconds(20))
        let figures = latency.snapshot()
        #expect(figures.count == 4)
        #expect(abs(figures.sum - 22.033) < 1e-9)
        // Bounds: 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 s; 20 s is only in the count.
        #expect(figures.atMost == [1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3])
    }

    @Test func aFailedDeletionIsRememberedAndOnlyTheDeletionIsTriedAgain() async throws {
        let rig = try await MemoryRig.make()
        rig.modem.deliver(rig.sms(try rig.sealedByBob("once only")))
        rig.modem.fail(.delete, with: ModemError(.modemFailure, "The modem said ERROR."))
        await Self.scan(rig)
        #expect(rig.modem.stored.count == 1)
        #expect(rig.link.snapshot.undeleted.count == 1)
        await Self.scan(rig)
        #expect(rig.modem.stored.isEmpty && rig.link.snapshot.undeleted.isEmpty)
        #expect(try rig.store.log(limit: 100).filter { $0.direction == .incoming }.map(\.status) == [.decrypted])
    }

    @Test func aSecondCopyFromTheNetworkIsLoggedAsADuplicate() async throws {
        let rig = try await MemoryRig.make()
        let sealed = try rig.sealedByBob("said twice")
        rig.modem.deliver(rig.sms(sealed, fingerprint: "same-pdu"))
        await Self.scan(rig)
        rig.modem.deliver(rig.sms(sealed, fingerprint: "same-pdu"))
        await Self.scan(rig)
        #expect(try rig.incoming(.decrypted).count == 1)
        #expect(try rig.incoming(.duplicate).count == 1)
        #expect(rig.modem.stored.isEmpty)
    }

    @Test func aTamperedMessageIsRejectedQuarantinedAndCounted() async throws {
        let rig = try await MemoryRig.make()
        var sealed = Array(try rig.sealedByBob("do not touch"))
        sealed[80] = sealed[80] == "A" ? "B" : "A"
        rig.modem.deliver(rig.sms(String(sealed)))
        await Self.scan(rig)
        #expect(try rig.incoming(.rejected).count == 1)
        let bob = try rig.store.contact(named: "bob")
        #expect(bob.verificationFailures == 1)
        #expect(try rig.store.read { try $0.quarantined(for: bob) }.count == 1)
        #expect(rig.modem.stored.isEmpty)
    }

    @Test func ourOwnSMSComingBackIsLoggedButNeitherCountedNorKept() async throws {
        let rig = try await MemoryRig.make()
        var rng = SystemRandomNumberGenerator()
        let sent = try Messages.encrypt("sent to bob", for: "bob", store: rig.store, now: Date(), using: &rng)
        rig.modem.deliver(rig.sms(sent.ciphertexts[0]))
        await Self.scan(rig)
        let row = try #require(try rig.incoming(.rejected).first)
        #expect(row.error == IncomingMessage.reflectedNote(message: sent.logID, contact: "bob"))
        #expect(DecryptFailureReason(error: row.error) == .ownMessage)
        let bob = try rig.store.contact(named: "bob")
        #expect(bob.verificationFailures == 0)
        #expect(try rig.store.read { try $0.quarantined(for: bob) }.isEmpty)
        #expect(rig.modem.stored.isEmpty)
    }

    @Test("A contact's message from a number no contact has is applied as the contact's, the number noted")
    func aContactsMessageFromANewNumberOpens() async throws {
        let rig = try await MemoryRig.make()
        rig.modem.deliver(rig.sms(try rig.sealedByBob("new SIM, same keys"), from: "+15559876"))
        await Self.scan(rig)
        let row = try #require(try rig.incoming(.decrypted).first)
        #expect(row.text == "new SIM, same keys" && row.contactName == "bob" && row.remoteNumber == "+15559876")
        #expect(row.error == IncomingMessage.otherNumberNote("+15559876", contact: "bob"))
        #expect(try rig.incoming(.plain).isEmpty)
        #expect(try rig.store.contact(named: "bob").number?.e164 == MemoryRig.bobNumber, "the number is only noted")
        #expect(rig.modem.stored.isEmpty)
    }

    @Test func aPlainSMSFromAStrangerTouchesNoContact() async throws {
        let rig = try await MemoryRig.make()
        let before = try rig.store.read { try $0.session(for: $0.contact(named: "bob")) }
        rig.modem.deliver(rig.sms("hello", from: "+15559999"))
        await Self.scan(rig)
        let row = try #require(try rig.incoming(.plain).first)
        #expect(row.contactName == nil && row.remoteNumber == "+15559999" && row.text == "hello")
        #expect(try rig.store.read { try $0.session(for: $0.contact(named: "bob")) } == before)
    }

    @Test func aStatusReportMarksItsRowDelivered() async throws {
        let rig = try await MemoryRig.make()
        let queued = try Messages.queue("report me", to: "bob", store: rig.store)
        try rig.store.write { tx in
            _ = try tx.claimNextOutbox(modem: "m1")
            try tx.markOutboxSent(queued.outboxID, reference: 7, modem: "m1")
        }
        rig.modem.deliver(rig.statusReport(reference: 7))
        await Self.scan(rig)
        #expect(try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .delivered)
        #expect(rig.modem.stored.isEmpty)
    }

    @Test func aReportForAnSMSStillBeingRecordedWaitsOnTheModem() async throws {
        let rig = try await MemoryRig.make()
        _ = try Messages.queue("in flight", to: "bob", store: rig.store)
        _ = try rig.store.write { tx in try tx.claimNextOutbox(modem: "m1") }
        rig.modem.deliver(rig.statusReport(reference: 9))
        _ = rig.link.takeInboxRequest()
        let left = await InboxReceiver(context: rig.context).scan(rig.link, logger: quietLogger("smsgw.gateway.test"))
        #expect(rig.modem.stored.count == 1)
        #expect(left.deferred == 1 && left.failed == 0)
        // Not read again at once: that looped as fast as the modem answered for as long as the
        // row stayed submitting (for ever on a full disk). The receiver pauses, and the outbox
        // sender rings it when it records the row (InboxRetryTests).
        #expect(!rig.link.takeInboxRequest())
    }

    @Test func theReceiverWakesOnTheModemsAnnouncement() async throws {
        let rig = try await MemoryRig.make()
        let receiver = InboxReceiver(context: rig.context)
        let task = Task { try await receiver.run() }
        try await Task.sleep(for: .milliseconds(100))
        let supervisor = Task { try await ModemSupervisor(link: rig.link, context: rig.context).run() }
        rig.modem.deliver(rig.sms(try rig.sealedByBob("ring ring")))
        #expect(await eventually(timeout: MemoryRig.patience) { try rig.incoming(.decrypted).count == 1 })
        supervisor.cancel()
        task.cancel()
        _ = try? await supervisor.value
        _ = try? await task.value
    }

    @Test func aDirectDeliveryIsProcessedAndConcatenatedPartsAreJoined() async throws {
        let rig = try await MemoryRig.make()
        var direct = rig.sms("handed over", from: "+15559999")
        direct.location = .notStored
        rig.link.receiveDirect(direct)
        rig.modem.deliver(rig.sms("world", from: "+15559998", concatenation: .init(reference: 3, part: 2, total: 2)))
        rig.modem.deliver(rig.sms("hello ", from: "+15559998", concatenation: .init(reference: 3, part: 1, total: 2)))
        await Self.scan(rig)
        #expect(Set(try rig.incoming(.plain).compactMap(\.text)) == ["handed over", "hello world"])
        #expect(rig.modem.stored.isEmpty)
    }

    @Test("A ciphertext a phone sent as UCS-2 parts is joined and opened like any SMS")
    func aCiphertextInUCS2PartsOpens() async throws {
        let rig = try await MemoryRig.make()
        let sealed = Array(try rig.sealedByBob("sent from a phone"))
        // 160 characters in UCS-2 take 3 parts of at most 67; they arrive out of order.
        for (index, start) in [(2, 67), (1, 0), (3, 134)] {
            var part = rig.sms(
                String(sealed[start..<min(start + 67, sealed.count)]), concatenation: .init(reference: 9, part: index, total: 3))
            part.coding = .ucs2
            rig.modem.deliver(part)
        }
        await Self.scan(rig)
        #expect(try rig.incoming(.decrypted).map(\.text) == ["sent from a phone"])
        #expect(try rig.incoming(.plain).isEmpty)
        #expect(rig.modem.stored.isEmpty)
    }

    @Test func anUnreadableEntryIsLoggedOnceAndDeleted() async throws {
        let rig = try await MemoryRig.make()
        let entry = UnreadableEntry(
            location: rig.nextLocation(), evidence: ["+CMGR: 0,,20", "0791ZZZZ"], reason: "ERR_CORRUPTED", fingerprint: "junk")
        rig.modem.update { $0.listing.unreadable = [entry] }
        rig.modem.fail(.delete, with: ModemError(.modemFailure, "The modem said ERROR."))
        await Self.scan(rig)
        await Self.scan(rig)
        let rows = try rig.incoming(.unreadable)
        #expect(rows.count == 1 && rows.first?.text?.contains("0791ZZZZ") == true)
        #expect(rig.modem.state.withLock { $0.listing.unreadable.isEmpty })
    }

    @Test func aStorageReadThatTimesOutAsksForRecovery() async throws {
        let rig = try await MemoryRig.make()
        let timeout = ModemError(.timeout, "Reading messages overran its deadline.")
        rig.modem.fail(.storage, with: timeout)
        await Self.scan(rig)
        #expect(!rig.link.isReady)
        #expect(rig.link.takeRecoveryRequest() == timeout.description)
    }
}
