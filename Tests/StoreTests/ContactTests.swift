import Failures
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Contacts and phone numbers")
struct ContactTests {
    @Test(
        "Numbers people type normalise to E.164",
        arguments: [
            ("+44 20 7946 0958", "+442079460958"),
            ("0044 20 7946 0958", "+442079460958"),
            ("(+1) 555-0100", "+15550100"),
            ("+1 (555) 010-0123", "+15550100123"),
            ("  +49.30.1234567 ", "+49301234567"),
            ("+33/1/23/45/67/89", "+33123456789"),
            ("+861234567890123", "+861234567890123"),
        ]
    )
    func normalises(input: String, expected: String) throws {
        #expect(try PhoneNumber(input).e164 == expected)
    }

    @Test(
        "Numbers without a country code or with the wrong length are refused with a clear sentence",
        arguments: [
            ("020 7946 0958", "add the country code, e.g. +44"),
            ("5550100", "add the country code"),
            ("+1234567", "8 to 15 digits"),
            ("+1234567890123456", "8 to 15 digits"),
            ("+44 20 79A6 0958", "contains \"A\""),
            ("", "empty"),
            ("+44+2079460958", "+ after the start"),
            ("+0441234567", "never start with 0"),
        ]
    )
    func refuses(input: String, fragment: String) {
        #expect {
            _ = try PhoneNumber(input)
        } throws: { error in
            guard case .invalidInput(let message)? = error as? StoreError else { return false }
            return message.contains(fragment)
        }
    }

    @Test(
        "A stored number reads as the parse gives it: taken as it is in E.164 form, parsed otherwise",
        arguments: ["+15550100", "+861234567890123", "+4930123456", "15550100", "+0441234567", "+1234567", "+1555 0100", "+1555-0100x"]
    )
    func storedNumbers(stored: String) {
        let parsed = try? PhoneNumber(stored)
        let read = try? PhoneNumber(storedE164: stored)
        #expect(read == parsed)
    }

    @Test("Add, look up without regard to case, list, rename, renumber, remove", arguments: StoreBackendKind.allCases)
    func crud(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try store.addContact(name: "  Alice ", number: TestStore.number("+447700900001"), pairingCode: Data("pa".utf8))
        #expect(alice.name == "Alice")
        #expect(alice.pairingState == .pending)
        #expect(alice.verificationFailures == 0)
        #expect(try store.contact(named: "ALICE").id == alice.id)
        _ = try store.addContact(name: "bob", number: nil, pairingCode: Data("pb".utf8))
        #expect(try store.contacts().map(\.name) == ["Alice", "bob"])

        let renamed = try store.renameContact(named: "alice", to: "Alicia")
        #expect(renamed.id == alice.id && renamed.name == "Alicia")
        #expect(try store.renameContact(named: "alicia", to: "ALICIA").name == "ALICIA")

        let renumbered = try store.setNumber(TestStore.number("+447700900002"), forContactNamed: "alicia")
        #expect(renumbered.number?.e164 == "+447700900002")
        #expect(try store.read { try $0.contact(withNumber: TestStore.number("+447700900002")) }?.id == alice.id)
        #expect(try store.setNumber(nil, forContactNamed: "alicia").number == nil)

        try store.removeContact(named: "Alicia")
        #expect(throws: StoreError.self) { _ = try store.contact(named: "alicia") }
        #expect(try store.contacts().map(\.name) == ["bob"])
    }

    @Test("Duplicate names (any case) and numbers are refused; bad names too", arguments: StoreBackendKind.allCases)
    func duplicatesAndBadNames(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        _ = try store.addContact(name: "Alice", number: TestStore.number("+447700900001"), pairingCode: Data())
        // The sentence names the contact as stored, which a full-width or other-case name matched.
        #expect {
            _ = try store.addContact(name: "ａｌｉｃｅ", number: nil, pairingCode: Data())
        } throws: { error in
            guard case .alreadyExists(let message)? = error as? StoreError else { return false }
            return message.contains("\"ａｌｉｃｅ\" is taken by the contact \"Alice\"")
        }
        #expect {
            _ = try store.addContact(name: "Alice", number: nil, pairingCode: Data())
        } throws: { error in
            guard case .alreadyExists(let message)? = error as? StoreError else { return false }
            return message == "A contact named \"Alice\" already exists; choose another name."
        }
        #expect {
            _ = try store.addContact(name: "other", number: TestStore.number("0044 7700 900001"), pairingCode: Data())
        } throws: { error in
            guard case .alreadyExists(let message)? = error as? StoreError else { return false }
            return message.contains("Alice")
        }
        #expect(throws: StoreError.self) { _ = try store.addContact(name: "  ", number: nil, pairingCode: Data()) }
        #expect(throws: StoreError.self) {
            _ = try store.addContact(name: String(repeating: "x", count: 65), number: nil, pairingCode: Data())
        }
        _ = try store.addContact(name: String(repeating: "x", count: 64), number: nil, pairingCode: Data())
        #expect(throws: StoreError.self) { _ = try store.contact(named: "nobody") }
        #expect(StoreError.notFound(.contact(named: "x")).category == .notFound)
    }

    @Test("Pairing stores the session, drops the code; counters and times update", arguments: StoreBackendKind.allCases)
    func pairingAndCounters(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try store.addContact(name: "alice", number: nil, pairingCode: Data("my-code".utf8))
        #expect(try store.read { try $0.pairingCode(for: alice) } == Data("my-code".utf8))
        #expect(try store.read { try $0.session(for: alice) } == nil)

        let failures = try store.write { tx in
            try tx.setPaired(alice, session: Data("s0".utf8))
            try tx.incrementFailures(for: alice)
            return try tx.incrementFailures(for: alice)
        }
        #expect(failures == 2)
        let sent = Date(timeIntervalSince1970: 1_800_000_000)
        let paired = try store.write { tx in
            try tx.resetFailures(for: alice)
            try tx.recordSent(to: alice, at: sent)
            try tx.recordReceived(from: alice, at: sent + 5)
            return try tx.contact(id: alice.id)
        }
        #expect(paired.pairingState == .paired)
        #expect(paired.verificationFailures == 0)
        #expect(paired.lastSentAt == sent && paired.lastReceivedAt == sent + 5)
        #expect(try store.read { try $0.pairingCode(for: alice) } == nil)
        #expect(try store.read { try $0.session(for: alice) } == Data("s0".utf8))

        try store.write { try $0.resetPairing(alice, pairingCode: Data("new-code".utf8)) }
        #expect(try store.contact(named: "alice").pairingState == .pending)
        #expect(try store.read { try $0.session(for: alice) } == nil)
    }

    @Test("An error thrown inside write rolls back every change and comes back unchanged", arguments: StoreBackendKind.allCases)
    func rollback(_ backend: StoreBackendKind) throws {
        struct Abort: Error, Equatable {}
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try store.addContact(name: "alice", number: nil, pairingCode: Data())
        #expect(throws: Abort()) {
            try store.write { tx in
                try tx.setPaired(alice, session: Data("advanced".utf8))
                _ = try tx.addContact(name: "bob", number: nil, pairingCode: Data())
                throw Abort()
            }
        }
        #expect(try store.contact(named: "alice").pairingState == .pending)
        #expect(try store.contacts().count == 1)
    }

    @Test("Removing a contact deletes its messages and outbox rows", arguments: StoreBackendKind.allCases)
    func removeCascades(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try store.addContact(name: "alice", number: TestStore.number("+447700900001"), pairingCode: Data())
        try store.write { tx in
            let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: alice, status: .queued, text: "hi"))
            try tx.enqueueOutbox("C", to: alice, messageID: id)
        }
        try store.removeContact(named: "alice")
        #expect(try store.log().isEmpty)
        #expect(try store.read { try $0.outboxItems() }.isEmpty)
    }
}
