import Foundation
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// Only the storage refusing a write (full, read-only, failing, damaged, unreachable) is the
/// store refusing writes in the daemon's status: a statement that breaks one of the schema's
/// rules is a fault of smsgw, reported as such, and no refusal of the store.
@Suite("Live status: what counts as the store refusing writes")
struct StoreRefusalCauseTests {
    @Test(
        "A write the full store cannot take (SQLite's page limit reached: SQLITE_FULL) sets the refusal; once space is back the next write clears it"
    )
    func aFullStoreSetsTheRefusal() async throws {
        let rig = try await MemoryRig.make()
        let live = LiveStatusTests.live(rig, context: rig.context)
        try rig.writeFiller(bytes: 16)
        try rig.fillStore()
        let before = Date()
        let error = #expect(throws: StoreError.self) { try rig.writeFiller(bytes: 65536) }
        #expect(error?.cause == .full)
        #expect(error?.description.contains("its disk is full") == true, "\(String(describing: error))")
        let refusal = try #require(try live.read(now: Date()).storeRefusal, "the full store shows in the status")
        #expect(refusal.since >= before && refusal.error == "database or disk is full")

        try rig.unfillStore()
        try rig.writeFiller(bytes: 65536)
        #expect(try live.read(now: Date()).storeRefusal == nil)
    }

    @Test("A send that breaks one of the schema's rules (SQLITE_CONSTRAINT, whatever its message says) is no refusal of the store")
    func aBrokenRuleIsNoRefusal() async throws {
        let rig = try await MemoryRig.make()
        let live = LiveStatusTests.live(rig, context: rig.context)
        try rig.breakRule("INSERT", on: "outbox")
        let error = #expect(throws: StoreError.self) { try FrontEndRefusalTests.submit("hello bob", to: "bob", on: rig) }
        #expect(error?.cause == .constraint && error?.category == .internalFault)
        #expect(error?.description.contains("a fault of smsgw") == true, "\(String(describing: error))")
        #expect(try live.read(now: Date()).storeRefusal == nil)
        #expect(try live.read(now: Date()).readiness == .ready(modems: ["m1"]))
    }

    @Test("A received SMS whose record breaks one of the schema's rules stays on the modem, and is no refusal of the store")
    func aReceivedSMSThatBreaksARuleIsNoRefusal() async throws {
        let rig = try await MemoryRig.make()
        let live = LiveStatusTests.live(rig, context: rig.context)
        try rig.breakRule("INSERT", on: "received_pdus")
        rig.modem.deliver(rig.sms("plain, kept on the modem", from: "+15559999"))
        let receiver = Task { try await InboxReceiver(context: rig.context).run() }
        rig.link.requestInboxScan()
        // The scan left it on the modem, to be read again after a pause.
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.snapshot.retryPending })
        let status = try live.read(now: Date())
        #expect(status.storeRefusal == nil)
        // It is a fault of smsgw, and the status says so: it waits on the modem, taking a slot.
        let fault = try #require(status.inboxFault)
        #expect(fault.waiting == 1 && fault.error.contains("a fault of smsgw"), "\(fault)")
        #expect(fault.sentence.hasPrefix("1 received SMS cannot be recorded since"))
        // Fixed, the next read records it and the fault is gone.
        try rig.acceptWrites()
        rig.link.requestInboxScan()
        #expect(await eventually(timeout: MemoryRig.patience) { try live.read(now: Date()).inboxFault == nil })
        #expect(try rig.incoming(.plain).map(\.text) == ["plain, kept on the modem"])
        receiver.cancel()
        _ = try? await receiver.value
    }
}
