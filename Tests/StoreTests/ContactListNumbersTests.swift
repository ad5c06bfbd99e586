import Foundation
import TestSupport
import Testing

@testable import Store

/// A list of contacts reads every contact's other numbers in one statement
/// (``StoreReader/contacts(rows:)``); each contact still gets its own, in their order.
@Suite("Contacts listed with their other numbers")
struct ContactListNumbersTests {
    @Test("Each listed contact has its own other numbers in order, and one without has none", arguments: StoreBackendKind.allCases)
    func listsKeepEachContactsNumbers(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let numbers = try [
            "base": ["+447700900101", "+447700900103", "+447700900102"],
            "alpha": ["+447700900201", "+447700900202"],
            "zulu": ["+447700900301"],
        ].mapValues { try $0.map(TestStore.number) }
        for (name, list) in numbers {
            _ = try store.addContact(name: name, number: nil, pairingCode: Data())
            _ = try store.write { try $0.setNumbers(list, forContactNamed: name) }
        }
        _ = try store.addContact(name: "mike", number: nil, pairingCode: Data())

        let listed = try store.read { try $0.contacts() }
        #expect(listed.map(\.name) == ["alpha", "base", "mike", "zulu"])
        for contact in listed {
            #expect(contact.numbers == numbers[contact.name] ?? [], "\(contact.name)")
            #expect(try store.contact(named: contact.name).otherNumbers == contact.otherNumbers, "\(contact.name)")
        }
    }
}
