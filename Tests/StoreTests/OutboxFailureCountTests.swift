import Foundation
import TestSupport
import Testing

@testable import Store

/// The outbox's count of temporary failures (migration `v10-outbox-temporary-failures`), which the
/// sender's limit reads: counted failures add up and keep the first one's time, modem trouble
/// does not count, and a send or a retry by hand starts afresh.
@Suite("Outbox: counting temporary failures")
struct OutboxFailureCountTests {
    @Test("Counted failures add up from the first one's time; a send and a retry clear them", arguments: StoreBackendKind.allCases)
    func counting(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try store.addContact(name: "alice", number: TestStore.number("+447700900010"), pairingCode: Data())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (messageID, id) = try store.write { tx in
            let m = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: alice, status: .queued, text: "x"))
            return (m, try tx.enqueueOutbox("C", to: alice, messageID: m, now: now))
        }
        func fail(at time: Date, counted: Bool, permanent: Bool = false) throws -> OutboxItem {
            _ = try store.write { try $0.claimNextOutbox(modem: "m", now: time) }
            try store.write { try $0.markOutboxFailed(id, error: "e", permanent: permanent, retryAt: time, counted: counted, now: time) }
            return try store.read { try $0.outboxItem(id: id) }
        }
        #expect(try fail(at: now, counted: false).temporaryFailures == 0)
        #expect(try store.read { try $0.outboxItem(id: id) }.failingSince == nil)
        var item = try fail(at: now + 10, counted: true)
        #expect(item.temporaryFailures == 1 && item.failingSince == now + 10)
        item = try fail(at: now + 20, counted: false)
        #expect(item.temporaryFailures == 1 && item.failingSince == now + 10)
        item = try fail(at: now + 30, counted: true, permanent: true)
        #expect(item.state == .failed && item.temporaryFailures == 2 && item.failingSince == now + 10)

        // Queued again by hand: counted afresh.
        #expect(try store.write { try $0.requeueFailedOutbox(messageID: messageID, now: now + 40) } == 1)
        item = try store.read { try $0.outboxItem(id: id) }
        #expect(item.temporaryFailures == 0 && item.failingSince == nil)

        // Sent after a counted failure: cleared too, so a resend for an acknowledgement starts afresh.
        _ = try fail(at: now + 50, counted: true)
        _ = try store.write { try $0.claimNextOutbox(modem: "m", now: now + 60) }
        try store.write { try $0.markOutboxSent(id, reference: 7, modem: "m", now: now + 60) }
        item = try store.read { try $0.outboxItem(id: id) }
        #expect(item.temporaryFailures == 0 && item.failingSince == nil && item.state == .sent)
    }
}
