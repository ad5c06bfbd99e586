import Failures
import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// Adding, pairing, re-pairing by hand, editing and removing contacts.
struct ContactsTests {
    @Test(arguments: StoreBackendKind.allCases)
    func pairingOnBothSidesGivesTheSameSafetyCodeAndASecondCodeIsAConflict(_ backend: StoreBackendKind) throws {
        let couple = try Couple(paired: false, on: backend)
        var rng = SystemRandomNumberGenerator()
        let carol = try Contacts.add(name: "carol", store: couple.alice, using: &rng)
        #expect(carol.number == nil && carol.pairingCode.split(separator: "-").count == 5)
        #expect(try OperationsJSON.string(carol).contains("\"number\":null"))
        #expect(try Contacts.contact(named: "carol", store: couple.alice).pairing == .pending)

        // Each side enters the code the other gave (read back here from what each printed).
        let aliceCode = try couple.bob.read { try $0.loadPairingCode(for: $0.contact(named: "alice")) }
        let bobCode = try couple.alice.read { try $0.loadPairingCode(for: $0.contact(named: "bob")) }
        let onAlice = try Contacts.pair("bob", code: try #require(aliceCode), store: couple.alice, now: Date())
        let onBob = try Contacts.pair("alice", code: try #require(bobCode), store: couple.bob, now: Date())
        #expect(onAlice.safetyCode == onBob.safetyCode && !onAlice.rePaired)
        #expect(try OperationsJSON.string(onAlice) == "{\"name\":\"bob\",\"safetyCode\":\"\(onAlice.safetyCode)\"}")

        let again = #expect(throws: ContactError.self) {
            try Contacts.pair("bob", code: try #require(aliceCode), store: couple.alice, now: Date())
        }
        #expect(again == .alreadyPaired(contact: "bob") && again?.category == .conflict)
        #expect(throws: CipherError.self) {
            try Contacts.pair("carol", code: try PairingCode(parsing: carol.pairingCode), store: couple.alice, now: Date())
        }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aManualRePairingKeepsTheSessionUntilTheNewCodesAreEntered(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let late = try Messages.encrypt("sent before the re-pairing", for: "alice", store: couple.bob, now: Date(), using: &rng)

        let aliceNew = try Contacts.startRePairing("bob", store: couple.alice, using: &rng)
        let bobNew = try Contacts.startRePairing("alice", store: couple.bob, using: &rng)
        let pending = try Contacts.contact(named: "bob", store: couple.alice)
        #expect(pending.pairing == .pending && pending.rePairing)
        // Messages keep flowing on the current session meanwhile.
        let meanwhile = try Messages.encrypt("still flowing", for: "bob", store: couple.alice, now: Date(), using: &rng)
        _ = try Messages.decrypt(meanwhile.ciphertext, from: "alice", store: couple.bob, now: Date(), using: &rng)

        let paired = try Contacts.pair("bob", code: try PairingCode(parsing: bobNew.pairingCode), store: couple.alice, now: Date())
        _ = try Contacts.pair("alice", code: try PairingCode(parsing: aliceNew.pairingCode), store: couple.bob, now: Date())
        #expect(paired.rePaired)
        #expect(try Contacts.contact(named: "bob", store: couple.alice).pairing == .paired)
        // The old receive chain is kept for late arrivals.
        let opened = try Messages.decrypt(late.ciphertext, from: "bob", store: couple.alice, now: Date(), using: &rng)
        guard case .text(let message) = opened.content else {
            Issue.record("not a text")
            return
        }
        #expect(message.text == "sent before the re-pairing")
    }

    @Test(arguments: StoreBackendKind.allCases)
    func editChangesNumbersPinAndNameInOneTransaction(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let numbers = try ["+447700900101", "+447700900102"].map { try PhoneNumber($0) }
        let edited = try Contacts.edit(
            "BOB", changes: Contacts.Changes(name: "base", numbers: numbers, modem: .some("north")), store: couple.alice)
        #expect(edited.name == "base" && edited.numbers == ["+447700900101", "+447700900102"] && edited.modem == "north")
        #expect(try Contacts.drivenModems(store: couple.alice).isEmpty)

        // A refused change leaves everything as it was.
        #expect(throws: StoreError.self) {
            try Contacts.edit("base", changes: Contacts.Changes(name: "", modem: .some(nil)), store: couple.alice)
        }
        #expect(try Contacts.contact(named: "base", store: couple.alice).modem == "north")
        let cleared = try Contacts.edit("base", changes: Contacts.Changes(numbers: [], modem: .some(nil)), store: couple.alice)
        #expect(cleared.number == nil && cleared.modem == nil)

        #expect(try Contacts.remove("BASE", store: couple.alice) == "base")
        #expect(try Contacts.list(store: couple.alice).isEmpty)
        #expect(throws: StoreError.self) { try Contacts.contact(named: "base", store: couple.alice) }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func anUnreadableKeyStateSaysToUpgradeOrToPairAgainWithoutNamingACommand(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let a = couple.alice
        let stored = try #require(try a.read { try $0.session(for: $0.contact(named: "bob")) })
        var newer = stored
        newer[newer.startIndex + 1] = 99  // the version byte of the stored form
        try a.write { tx in try tx.setSession(newer, for: tx.contact(named: "bob")) }
        let upgrade = #expect(throws: StoreError.self) { try a.read { try $0.loadSession(for: $0.contact(named: "bob")) } }
        #expect(upgrade.map { "\($0)".contains("upgrade smsgw") && "\($0)".contains("Do not pair again") } == true)

        try a.write { tx in try tx.setSession(stored.dropLast(3), for: tx.contact(named: "bob")) }
        let damaged = #expect(throws: StoreError.self) { try a.read { try $0.loadSession(for: $0.contact(named: "bob")) } }
        #expect(damaged.map { "\($0)".contains("new codes") && !"\($0)".contains("smsgw") } == true)
        // The contact view shows it as not paired rather than failing.
        #expect(try Contacts.contact(named: "bob", store: a).sync.state == .notPaired)
    }
}
