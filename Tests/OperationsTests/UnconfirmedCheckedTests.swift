import Foundation
import Operations
import Store
import TestSupport
import Testing

/// Marking sent SMS never confirmed as checked
/// (``Operations/GatewayStatus/Unconfirmed/markChecked(_:by:address:store:now:)``): what counts
/// now, or one message; audited; refused for a message with nothing to check.
@Suite("Marking unconfirmed SMS checked")
struct UnconfirmedCheckedTests {
    /// Queues `text` to bob and records its SMS sent at `time`.
    static func sent(_ text: String, at time: Date, in store: UnlockedStore) throws -> Int64 {
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue(text, to: "bob", store: store, now: time, using: &rng)
        try store.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1", now: time))
            try tx.markOutboxSent(item.id, reference: 1, modem: "m1", now: time)
        }
        return queued.logID
    }

    @Test("All that count now, or one message whenever it went out; each audited", arguments: StoreBackendKind.allCases)
    func marking(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let store = couple.alice
        let now = Date()
        let old = try Self.sent("Sent seven hours ago.", at: now.addingTimeInterval(-7 * 3600), in: store)
        let recent = try Self.sent("Sent an hour ago.", at: now.addingTimeInterval(-3600), in: store)
        #expect(try GatewayStatus.read(from: store, now: now).unconfirmed?.count == 1)

        #expect(try GatewayStatus.Unconfirmed.markChecked(.all, by: .commandLine, store: store, now: now) == 1)
        #expect(try GatewayStatus.read(from: store, now: now).unconfirmed == nil)
        // The recent one was not counted yet, so "all" left it: it counts once its 6 hours passed.
        let later = now.addingTimeInterval(6 * 3600)
        #expect(try GatewayStatus.read(from: store, now: later).unconfirmed?.count == 1)
        #expect(
            try GatewayStatus.Unconfirmed.markChecked(.message(recent), by: .token("ci"), address: "192.0.2.7", store: store, now: now) == 1
        )
        #expect(try GatewayStatus.read(from: store, now: later).unconfirmed == nil)

        let audit = try Audit.list(limit: 2, in: store)
        #expect(audit.map(\.action) == ["unconfirmed-checked", "unconfirmed-checked"])
        #expect(audit.map(\.target) == ["message \(recent)", "all"] && audit.map(\.actor) == ["token", "command-line"])
        #expect(audit.first?.address == "192.0.2.7")
        // Checked already: nothing to check, refused, not audited again.
        #expect(throws: MessageError.nothingUnconfirmed(id: old)) {
            try GatewayStatus.Unconfirmed.markChecked(.message(old), by: .commandLine, store: store, now: now)
        }
        #expect(try Audit.list(in: store).count == 2)
    }

    @Test("A queued message and an unknown one are refused; all with none counted marks nothing", arguments: StoreBackendKind.allCases)
    func refusals(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("Still queued.", to: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(throws: MessageError.nothingUnconfirmed(id: queued.logID)) {
            try GatewayStatus.Unconfirmed.markChecked(.message(queued.logID), by: .commandLine, store: couple.alice, now: Date())
        }
        #expect(throws: StoreError.self) {
            try GatewayStatus.Unconfirmed.markChecked(.message(9999), by: .commandLine, store: couple.alice, now: Date())
        }
        #expect(try GatewayStatus.Unconfirmed.markChecked(.all, by: .commandLine, store: couple.alice, now: Date()) == 0)
    }

    @Test("Something can confirm an SMS: a report asked for, or a contact with acknowledgements at version 2")
    func whatCanConfirm() throws {
        let couple = try Couple()
        var bob = try couple.alice.read { try $0.contact(named: "bob") }
        #expect(GatewayStatus.Unconfirmed.confirmable(reportRequested: true, to: bob))
        #expect(!GatewayStatus.Unconfirmed.confirmable(reportRequested: false, to: bob))
        bob.acknowledgements = true
        #expect(GatewayStatus.Unconfirmed.confirmable(reportRequested: false, to: bob))
        bob.protocolVersion = 1
        #expect(!GatewayStatus.Unconfirmed.confirmable(reportRequested: false, to: bob))
    }
}
