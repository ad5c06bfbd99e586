import Failures
import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// Starting, repeating, accepting and rejecting a resync, and its preconditions.
struct ResyncTests {
    @Test(arguments: StoreBackendKind.allCases)
    func startQueuesTheHandshakeAndARepeatSendsTheSameOne(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let first = try Resync.start(with: "BOB", store: couple.alice, now: Date(), using: &rng)
        let again = try Resync.start(with: "bob", store: couple.alice, now: Date(), using: &rng)
        let restarted = try Resync.start(with: "bob", restart: true, store: couple.alice, now: Date(), using: &rng)
        let bodies = try couple.alice.read { reader in
            try [first, again, restarted].map { try reader.outboxItem(id: $0.outboxID).body }
        }
        #expect(bodies[0] == bodies[1] && bodies[0] != bodies[2])
        #expect(first.code == again.code && first.code != restarted.code && first.contact == "bob")
        #expect(try couple.alice.read { try $0.logEntry(id: first.logID) }.status == .resync)
        #expect(try Contacts.contact(named: "bob", store: couple.alice).sync.state == .resyncPending)
        #expect(try OperationsJSON.string(first) == "{\"code\":\"\(first.code)\",\"contact\":\"bob\",\"id\":\(first.logID)}")
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aWaitingRequestMustBeDecidedFirstAndRejectKeepsTheKeys(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let started = try Resync.start(with: "bob", store: couple.alice, now: Date(), using: &rng)
        let body = try couple.alice.read { try $0.outboxItem(id: started.outboxID) }.body
        _ = try Messages.decrypt(body, from: "alice", store: couple.bob, now: Date(), using: &rng)

        let waiting = #expect(throws: ResyncError.self) { try Resync.start(with: "alice", store: couple.bob, now: Date(), using: &rng) }
        #expect(waiting == .requestWaiting(contact: "alice", code: started.code) && waiting?.category == .conflict)
        #expect(waiting?.description.contains("smsgw") == false)

        let rejected = try Resync.reject(from: "alice", store: couple.bob, now: Date())
        #expect(rejected.contact == "alice" && rejected.rejected)
        #expect(try OperationsJSON.string(rejected) == "{\"contact\":\"alice\",\"rejected\":true}")
        #expect(throws: ResyncError.noRequestWaiting(contact: "alice")) { try Resync.reject(from: "alice", store: couple.bob, now: Date()) }
        #expect(throws: ResyncError.noRequestWaiting(contact: "alice")) {
            try Resync.accept(from: "alice", store: couple.bob, now: Date(), using: &rng)
        }
        #expect(try Contacts.contact(named: "alice", store: couple.bob).epoch == 0)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func acceptCompletesTheRequestAndReturnsTheAnswerForAContactWithoutANumber(_ backend: StoreBackendKind) throws {
        let couple = try Couple(aliceNumber: nil, on: backend)
        var rng = SystemRandomNumberGenerator()
        let started = try Resync.start(with: "bob", store: couple.alice, now: Date(), using: &rng)
        let body = try couple.alice.read { try $0.outboxItem(id: started.outboxID) }.body
        _ = try Messages.decrypt(body, from: "alice", store: couple.bob, now: Date(), using: &rng)

        let accepted = try Resync.accept(from: "ALICE", store: couple.bob, now: Date(), using: &rng)
        #expect(accepted.contact == "alice" && accepted.epoch == 1 && accepted.outboxID == nil && accepted.answer.count == 160)
        #expect(try couple.bob.read { try $0.logEntry(id: accepted.logID) }.status == .resynced)
        _ = try Messages.decrypt(accepted.answer, from: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(try Contacts.contact(named: "bob", store: couple.alice).epoch == 1)
        let json = try OperationsJSON.string(accepted)
        #expect(json.hasPrefix("{\"answer\":") && json.hasSuffix("\"contact\":\"alice\",\"epoch\":1,\"id\":\(accepted.logID)}"))
    }
}
