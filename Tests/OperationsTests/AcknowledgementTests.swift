import Failures
import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// End-to-end acknowledgements through the application layer (docs/PROTOCOL.md §9): batched after
/// a delay, applied to the sender's outbox and log, parts re-sent until acknowledged, then given up.
struct AcknowledgementOperationsTests {
    let text = String(repeating: "Acknowledged texts arrive whole, or say they did not. ", count: 6)  // 324 septets: 3 parts
    let start = Date(timeIntervalSince1970: 1_900_000_000)

    /// Both sides with acknowledgements on, alice's long text queued and "sent" by a modem.
    func sentLongText(on backend: StoreBackendKind = .sqlite) throws -> (Couple, QueuedMessage, [OutboxItem]) {
        let couple = try Couple(on: backend)
        _ = try Contacts.edit("bob", changes: .init(acknowledgements: true), store: couple.alice)
        _ = try Contacts.edit("alice", changes: .init(acknowledgements: true), store: couple.bob)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue(text, to: "bob", store: couple.alice, now: start, using: &rng)
        try send(couple.alice, count: queued.parts)
        let rows = try couple.alice.read { try $0.outboxItems() }
        #expect(rows.map(\.position) == [0, 1, 2] && rows.allSatisfy { $0.epoch == 0 && $0.awaitsAcknowledgement })
        return (couple, queued, rows)
    }

    /// Claims every queued row as a modem would and records it sent.
    func send(_ store: UnlockedStore, count: Int, at time: Date? = nil) throws {
        for _ in 0..<count {
            try store.write { tx in
                let item = try #require(try tx.claimNextOutbox(modem: "m1", now: time ?? start))
                try tx.markOutboxSent(item.id, reference: Int(item.id), modem: "m1", now: time ?? start)
            }
        }
    }

    /// Bob's due acknowledgements, opened by alice; returns what alice applied.
    func acknowledge(_ couple: Couple, at time: Date) throws -> [AppliedAcknowledgement] {
        var rng = SystemRandomNumberGenerator()
        let ids = try couple.bob.write { tx in try Acknowledgements.sendDue(in: tx, now: time, using: &rng) }
        return try ids.map { id in
            let body = try couple.bob.read { try $0.outboxItem(id: id) }.body
            let applied = try Messages.decrypt(body, from: "bob", store: couple.alice, now: time, using: &rng)
            guard case .acknowledgement(let acknowledgement) = applied.content else { throw CipherError.notAuthentic }
            return acknowledgement
        }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func oneAcknowledgementCoversWhatArrivedAndTheMessageIsAcknowledgedWhenAllIs(_ backend: StoreBackendKind) throws {
        let (couple, queued, rows) = try sentLongText(on: backend)
        var rng = SystemRandomNumberGenerator()
        for row in [rows[0], rows[2]] {
            _ = try Messages.decrypt(row.body, from: "alice", store: couple.bob, now: start, using: &rng)
        }
        #expect(try acknowledge(couple, at: start.addingTimeInterval(10)).isEmpty, "sent before the delay")
        let first = try acknowledge(couple, at: start.addingTimeInterval(31))
        #expect(first == [AppliedAcknowledgement(positions: 2, messages: [])])
        #expect(try couple.bob.read { try $0.outboxItems() }.allSatisfy { $0.kind == .acknowledgement })
        let acked = try couple.alice.read { try $0.outboxItems() }.map { $0.acknowledgedAt != nil }
        #expect(acked == [true, false, true])
        #expect(try couple.alice.read { try $0.logEntry(id: queued.logID) }.status == .sent)

        // Part 2 was lost: after the timeout it alone is queued again, the same ciphertext.
        let resent = try couple.alice.write { tx in try Acknowledgements.resendDue(in: tx, now: start.addingTimeInterval(121)) }
        #expect(resent.resent == [rows[1].id] && resent.givenUp.isEmpty)
        let again = try couple.alice.read { try $0.outboxItem(id: rows[1].id) }
        #expect(again.state == .queued && again.resends == 1 && again.body == rows[1].body)

        _ = try Messages.decrypt(rows[1].body, from: "alice", store: couple.bob, now: start.addingTimeInterval(130), using: &rng)
        let second = try acknowledge(couple, at: start.addingTimeInterval(200))
        #expect(second == [AppliedAcknowledgement(positions: 1, messages: [queued.logID])])
        #expect(try couple.alice.read { try $0.logEntry(id: queued.logID) }.status == .acknowledged)
        #expect(try Contacts.contact(named: "bob", store: couple.alice).lastAcknowledgedAt == start.addingTimeInterval(200))
        // An acknowledgement is never acknowledged.
        #expect(
            try couple.alice.write { tx in try Acknowledgements.sendDue(in: tx, now: start.addingTimeInterval(999), using: &rng) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aCopyReceivedAgainIsAcknowledgedAgain(_ backend: StoreBackendKind) throws {
        let (couple, _, rows) = try sentLongText(on: backend)
        var rng = SystemRandomNumberGenerator()
        _ = try Messages.decrypt(rows[0].body, from: "alice", store: couple.bob, now: start, using: &rng)
        #expect(try acknowledge(couple, at: start.addingTimeInterval(31)).count == 1)
        #expect(try acknowledge(couple, at: start.addingTimeInterval(62)).isEmpty)
        let known = try couple.bob.write { tx in
            try Acknowledgements.acknowledgeAgain(
                rows[0].body, from: try tx.contact(named: "alice"), in: tx, now: start.addingTimeInterval(70))
        }
        #expect(known)
        #expect(try acknowledge(couple, at: start.addingTimeInterval(101)) == [AppliedAcknowledgement(positions: 1, messages: [])])
        let unknown = try couple.bob.write { tx in
            try Acknowledgements.acknowledgeAgain(rows[1].body, from: try tx.contact(named: "alice"), in: tx, now: start)
        }
        #expect(!unknown)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aPartNeverAcknowledgedIsGivenUpAfterFiveSends(_ backend: StoreBackendKind) throws {
        let (couple, queued, rows) = try sentLongText(on: backend)
        var time = start
        for resend in 1..<Acknowledgements.maxSends {
            time = time.addingTimeInterval(Acknowledgements.defaultTimeout * Double(1 << (resend - 1)) + 1)
            let due = try couple.alice.write { tx in try Acknowledgements.resendDue(in: tx, now: time) }
            #expect(due.resent.count == rows.count, "resend \(resend)")
            try send(couple.alice, count: rows.count, at: time)
        }
        time = time.addingTimeInterval(Acknowledgements.defaultTimeout * 16 + 1)
        let last = try couple.alice.write { tx in try Acknowledgements.resendDue(in: tx, now: time) }
        #expect(last.givenUp.count == rows.count && last.resent.isEmpty)
        let message = try couple.alice.read { try $0.logEntry(id: queued.logID) }
        #expect(message.status == .failed && message.error?.contains("did not acknowledge this part after 5 sends") == true)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func acknowledgementsNeedAPeerOnVersionTwo(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        _ = try Contacts.edit("bob", changes: .init(protocolVersion: 1), store: couple.alice)
        let error = #expect(throws: ContactError.self) {
            try Contacts.edit("bob", changes: .init(acknowledgements: true), store: couple.alice)
        }
        #expect(error == .acknowledgementsNeedVersionTwo(contact: "bob") && error?.category == .conflict)
        #expect(try Contacts.contact(named: "bob", store: couple.alice).acknowledgements == false)
    }
}
