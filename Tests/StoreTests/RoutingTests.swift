import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Contacts with several numbers and contacts pinned to a modem")
struct RoutingTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        "Every number of a contact finds it, each number belongs to one contact, and clearing drops them all",
        arguments: StoreBackendKind.allCases)
    func severalNumbers(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let numbers = try ["+447700900101", "+447700900102", "+447700900103"].map(TestStore.number)
        _ = try store.addContact(name: "base", number: nil, pairingCode: Data())
        let base = try store.write { try $0.setNumbers(numbers, forContactNamed: "base") }
        #expect(base.number == numbers[0])
        #expect(base.otherNumbers == Array(numbers.dropFirst()))
        #expect(base.numbers == numbers)
        for number in numbers {
            #expect(try store.read { try $0.contact(withNumber: number) }?.name == "base")
        }
        #expect(try store.contact(named: "BASE").numbers == numbers)

        // A number of "base", main or other, cannot be given to a second contact, nor twice.
        _ = try store.addContact(name: "other", number: nil, pairingCode: Data())
        for number in [numbers[0], numbers[2]] {
            #expect(throws: StoreError.self) { try store.write { try $0.setNumbers([number], forContactNamed: "other") } }
            #expect(throws: StoreError.self) { _ = try store.addContact(name: "third", number: number, pairingCode: Data()) }
        }
        let twice = try TestStore.number("+447700900109")
        #expect(throws: StoreError.self) { try store.write { try $0.setNumbers([twice, twice], forContactNamed: "other") } }

        // Replacing the list frees the numbers left out; clearing makes a copy-and-paste peer.
        let kept = try store.write { try $0.setNumbers([numbers[2], numbers[0]], forContactNamed: "base") }
        #expect(kept.numbers == [numbers[2], numbers[0]])
        #expect(try store.read { try $0.contact(withNumber: numbers[1]) } == nil)
        #expect(try store.write { try $0.setNumbers([numbers[1]], forContactNamed: "other") }.number == numbers[1])
        let cleared = try store.write { try $0.setNumber(nil, forContactNamed: "base") }
        #expect(cleared.numbers.isEmpty && cleared.number == nil)
        #expect(try store.read { try $0.contact(withNumber: numbers[2]) } == nil)

        // Removing a contact frees its other numbers too.
        _ = try store.write { try $0.setNumbers([numbers[0], numbers[2]], forContactNamed: "base") }
        try store.removeContact(named: "base")
        #expect(try store.read { try $0.contact(withNumber: numbers[2]) } == nil)
        #expect(try store.read { try $0.contactNumberCount() } == 0)
    }

    @Test("SMS to a contact with several numbers go to each number in turn", arguments: StoreBackendKind.allCases)
    func numbersInTurn(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let numbers = try ["+447700900201", "+447700900202", "+447700900203"].map(TestStore.number)
        _ = try store.addContact(name: "peer", number: nil, pairingCode: Data())
        let peer = try store.write { try $0.setNumbers(numbers, forContactNamed: "peer") }
        let single = try store.addContact(name: "single", number: TestStore.number("+447700900299"), pairingCode: Data())
        var sentTo: [PhoneNumber] = []
        for index in 0..<7 {
            try store.write { tx in
                // Interleaved rows for another contact must not disturb the turn.
                try tx.enqueueOutbox("S\(index)", to: single, now: now)
                let id = try tx.enqueueOutbox("P\(index)", to: peer, now: now)
                sentTo.append(try tx.outboxItem(id: id).number)
            }
        }
        #expect(sentTo == (0..<7).map { numbers[$0 % 3] })
        #expect(
            try store.read { try $0.outboxItems(in: []) }.filter { $0.contactID == single.id }.allSatisfy { $0.number == single.number })
    }

    @Test(
        "A pinned contact's rows go to its modem while it is ready and to any modem while it is not", arguments: StoreBackendKind.allCases)
    func pinnedModemWithFailover(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let pinned = try store.addContact(name: "pinned", number: TestStore.number("+447700900301"), pairingCode: Data())
        let free = try store.addContact(name: "free", number: TestStore.number("+447700900302"), pairingCode: Data())
        #expect(try store.write { try $0.setModem("north", forContactNamed: "pinned") }.modem == "north")
        #expect(throws: StoreError.self) { try store.write { try $0.setModem("", forContactNamed: "pinned") } }
        try store.write { tx in
            try tx.enqueueOutbox("PINNED", to: pinned, now: now)
            try tx.enqueueOutbox("FREE", to: free, now: now)
        }

        // North is ready: south sees and takes only the free contact's row.
        #expect(try store.read { try $0.hasDueOutbox(othersReady: ["north"], now: now) })
        let south = try store.write { try $0.claimNextOutbox(modem: "south", othersReady: ["north"], now: now) }
        #expect(south?.body == "FREE")
        #expect(try !store.read { try $0.hasDueOutbox(othersReady: ["north"], now: now) })
        #expect(try store.write { try $0.claimNextOutbox(modem: "south", othersReady: ["north"], now: now) } == nil)
        // North itself takes its contact's row.
        #expect(try store.read { try $0.hasDueOutbox(othersReady: ["south"], now: now) })
        let north = try store.write { try $0.claimNextOutbox(modem: "north", othersReady: ["south"], now: now) }
        #expect(north?.body == "PINNED" && north?.modem == "north")

        // North is down (not among the ready ones): south fails over.
        try store.write { tx in try tx.enqueueOutbox("PINNED 2", to: pinned, now: now) }
        let failover = try store.write { try $0.claimNextOutbox(modem: "south", othersReady: [], now: now) }
        #expect(failover?.body == "PINNED 2" && failover?.modem == "south")

        // Unpinned again: any modem.
        #expect(try store.write { try $0.setModem(nil, forContactNamed: "pinned") }.modem == nil)
        try store.write { tx in try tx.enqueueOutbox("PINNED 3", to: pinned, now: now) }
        #expect(try store.write { try $0.claimNextOutbox(modem: "south", othersReady: ["north"], now: now) }?.body == "PINNED 3")
    }

    @Test(
        "SMS not sent yet follow a corrected number, their log rows too (a retry goes to it); one sent stays as it went",
        arguments: StoreBackendKind.allCases)
    func unsentFollowTheNumber(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let wrong = try TestStore.number("+447700900401")
        let right = try TestStore.number("+447700900402")
        let peer = try store.addContact(name: "peer", number: wrong, pairingCode: Data())
        let messages = try store.write { tx in
            try ["SENT", "FAILED", "QUEUED"].map { body in
                let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: peer, status: .queued, text: body))
                return (id, try tx.enqueueOutbox(body, to: peer, messageID: id, now: now))
            }
        }
        try store.write { tx in
            let first = try #require(try tx.claimNextOutbox(modem: "m", now: now))
            try tx.markOutboxSent(first.id, reference: 1, modem: "m", now: now)
            let second = try #require(try tx.claimNextOutbox(modem: "m", now: now))
            try tx.markOutboxFailed(second.id, error: "The network refused the number.", permanent: true, now: now)
        }
        _ = try store.write { try $0.setNumbers([right], forContactNamed: "peer") }
        let after = try store.read { tx in try messages.map { (try tx.outboxItem(id: $0.1).number, try tx.logEntry(id: $0.0).remoteNumber) }
        }
        #expect(after.map(\.0) == [wrong, right, right])
        #expect(after.map(\.1) == [wrong.e164, right.e164, right.e164])
        #expect(try store.read { try $0.outboxItem(id: messages[1].1) }.lastErrorIsPermanent == false)
        // The retry of the failed one goes to the number the contact has now.
        try store.write { tx in _ = try tx.requeueFailedOutbox(messageID: messages[1].0, now: now) }
        #expect(try store.read { try $0.outboxItem(id: messages[1].1) }.number == right)
    }
}

extension StoreReader {
    /// How many further numbers the store holds, for tests that check nothing is left behind.
    func contactNumberCount() throws -> Int {
        try db.value(Int.self, sql: "SELECT COUNT(*) FROM contact_numbers") ?? 0
    }
}
