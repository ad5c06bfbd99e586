import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// A paste that does not verify for the contact it was given as, told apart when it is this
/// side's own SMS or another contact's: the two slips of copying by hand.
struct MisdirectedPasteTests {
    @Test(arguments: StoreBackendKind.allCases)
    func anSMSThisSideSealedIsNamedAsItsOwnMessage(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        _ = try Messages.encrypt("first", for: "bob", store: couple.alice, now: Date(), using: &rng)
        let sealed = try Messages.encrypt("Meet at noon", for: "bob", store: couple.alice, now: Date(), using: &rng)
        let before = try couple.alice.read { try $0.log() }
        // Pasted as the app shows it, broken over lines.
        let pasted = String(sealed.ciphertexts[0].prefix(80)) + "\n" + String(sealed.ciphertexts[0].dropFirst(80))
        #expect(throws: MessageError.ownMessage(id: sealed.logID, contact: "bob")) {
            try Messages.decrypt(pasted, from: "bob", store: couple.alice, now: Date(), using: &rng)
        }
        #expect(try couple.alice.read { try $0.log() } == before)
        #expect(try Contacts.contact(named: "bob", store: couple.alice).sync.consecutiveFailures == 0)
        // It still opens where it belongs.
        let opened = try Messages.decrypt(sealed.ciphertexts[0], from: "alice", store: couple.bob, now: Date(), using: &rng)
        guard case .text(let message) = opened.content else { throw CipherError.notAuthentic }
        #expect(message.text == "Meet at noon")
    }

    @Test func anSMSOfALongTextThisSideSealedIsFoundAmongItsParts() throws {
        let couple = try Couple()
        var rng = SystemRandomNumberGenerator()
        let sealed = try Messages.encrypt(
            String(repeating: "a long report ", count: 20), for: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(sealed.ciphertexts.count > 1)
        #expect(throws: MessageError.ownMessage(id: sealed.logID, contact: "bob")) {
            try Messages.decrypt(sealed.ciphertexts[1], from: "bob", store: couple.alice, now: Date(), using: &rng)
        }
    }

    @Test func anotherContactsSMSNamesThatContactAndChangesNothing() throws {
        let gateways = try Gateways(["alice", "bob", "carol"], pairs: [("alice", "bob"), ("carol", "bob")])
        var rng = SystemRandomNumberGenerator()
        let fromAlice = try Messages.encrypt("from alice", for: "bob", store: gateways["alice"], now: Date(), using: &rng)
        let before = try gateways["bob"].read { try $0.log() }
        #expect(throws: MessageError.fromAnotherContact(named: "alice", pastedAs: "carol", alreadyReceived: false)) {
            try Messages.decrypt(fromAlice.ciphertexts[0], from: "carol", store: gateways["bob"], now: Date(), using: &rng)
        }
        #expect(try gateways["bob"].read { try $0.log() } == before)
        // Alice's keys were only tried: the message still opens as hers, once.
        let opened = try Messages.decrypt(fromAlice.ciphertexts[0], from: "alice", store: gateways["bob"], now: Date(), using: &rng)
        guard case .text(let message) = opened.content else { throw CipherError.notAuthentic }
        #expect(message.text == "from alice")
        #expect(throws: MessageError.fromAnotherContact(named: "alice", pastedAs: "carol", alreadyReceived: true)) {
            try Messages.decrypt(fromAlice.ciphertexts[0], from: "carol", store: gateways["bob"], now: Date(), using: &rng)
        }
    }

    @Test func anSMSNoKeyOpensStaysNotAuthentic() throws {
        let gateways = try Gateways(["alice", "bob", "carol", "dave"], pairs: [("alice", "bob"), ("carol", "bob"), ("dave", "carol")])
        var rng = SystemRandomNumberGenerator()
        // Dave's SMS to carol reaches bob, who knows no dave.
        let stray = try Messages.encrypt("for carol", for: "carol", store: gateways["dave"], now: Date(), using: &rng)
        #expect(throws: CipherError.notAuthentic) {
            try Messages.decrypt(stray.ciphertexts[0], from: "alice", store: gateways["bob"], now: Date(), using: &rng)
        }
    }
}
