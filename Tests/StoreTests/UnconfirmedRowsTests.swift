import Foundation
import TestSupport
import Testing

@testable import Store

/// The rows the count of sent SMS never confirmed reads (migration `v13-outbox-unconfirmed`): only
/// what something could have confirmed when it went out, not what an operator marked checked,
/// and from a partial index that holds nothing else.
@Suite("Outbox: sent SMS never confirmed")
struct UnconfirmedRowsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let cutoff = now.addingTimeInterval(-6 * 3600)
    static let since = now.addingTimeInterval(-7 * 86_400)

    /// A text SMS to `contact` queued, claimed and sent at `time`, as the sender records it.
    static func sent(_ store: UnlockedStore, to contact: Contact, at time: Date, confirmable: Bool = true) throws -> (
        message: Int64, outbox: Int64
    ) {
        try store.write { tx in
            let message = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: contact, status: .queued, text: "x"))
            let id = try tx.enqueueOutbox("C\(message)", to: contact, messageID: message, now: time)
            _ = try #require(try tx.claimNextOutbox(modem: "m", now: time))
            try tx.markOutboxSent(id, reference: Int(message), modem: "m", confirmable: confirmable, now: time)
            return (message, id)
        }
    }

    @Test(
        "Only what could be confirmed counts; marked checked it stops counting; a later report is still recorded",
        arguments: StoreBackendKind.allCases)
    func counting(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try store.addContact(name: "alice", number: TestStore.number("+447700900010"), pairingCode: Data())
        let counted = try Self.sent(store, to: alice, at: Self.now.addingTimeInterval(-7 * 3600))
        let unconfirmable = try Self.sent(store, to: alice, at: Self.now.addingTimeInterval(-8 * 3600), confirmable: false)
        #expect(try store.read { try $0.outboxItem(id: unconfirmable.outbox) }.confirmable == false)
        let recent = try Self.sent(store, to: alice, at: Self.now.addingTimeInterval(-3600))
        _ = try Self.sent(store, to: alice, at: Self.now.addingTimeInterval(-8 * 86_400))
        func found() throws -> (Int, Date?) { try store.read { try $0.unconfirmedSent(before: Self.cutoff, since: Self.since) } }
        #expect(try found() == (1, Self.now.addingTimeInterval(-7 * 3600)))

        #expect(try store.write { try $0.markUnconfirmedChecked(before: Self.cutoff, since: Self.since, at: Self.now) } == 1)
        #expect(try found() == (0, nil))
        #expect(try store.read { try $0.outboxItem(id: counted.outbox) }.checkedAt == Self.now)
        #expect(try store.write { try $0.markUnconfirmedChecked(before: Self.cutoff, since: Self.since, at: Self.now) } == 0)
        // One message by its id, though it does not count yet; once, not twice.
        #expect(try store.write { try $0.markUnconfirmedChecked(messageID: recent.message, at: Self.now) } == 1)
        #expect(try store.write { try $0.markUnconfirmedChecked(messageID: recent.message, at: Self.now) } == 0)
        #expect(try store.read { try $0.unconfirmedSent(before: Self.now, since: Self.since) } == (0, nil))

        // The contact's phone was off: the report comes after the check, and is recorded.
        try store.write { try $0.markOutboxDelivered(counted.outbox, now: Self.now) }
        #expect(try store.read { try $0.outboxItem(id: counted.outbox) }.state == .delivered)
        #expect(try store.read { try $0.logEntry(id: counted.message) }.status == .delivered)
    }

    @Test("The count is read from the partial index outbox_unconfirmed", arguments: StoreBackendKind.allCases)
    func readFromItsIndex(_ backend: StoreBackendKind) throws {
        let arguments: StoreArguments = [Self.cutoff.timeIntervalSince1970, Self.since.timeIntervalSince1970]
        let plan = try ReadIndexPlanTests.plan(StoreReader.unconfirmedCount, arguments, on: backend)
        #expect(plan.contains("outbox_unconfirmed"), "\(plan)")
    }
}
