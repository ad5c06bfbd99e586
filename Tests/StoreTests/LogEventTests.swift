import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("The log's change feed (message_events) and contact names without unlocking")
struct LogEventTests {
    @Test(
        "Logging a message and each later change of its status are events, in order, whoever writes them",
        arguments: StoreBackendKind.allCases)
    func eventsFollowEveryWriter(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let bob = try store.addContact(name: "bob", number: TestStore.number("+447700900010"), pairingCode: Data())
        #expect(try store.read { try $0.latestLogSequence() } == 0)
        let (messageID, outboxID) = try store.write { tx in
            let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: bob, status: .queued, text: "hi"))
            return (id, try tx.enqueueOutbox("CIPHER", to: bob, messageID: id))
        }
        // The outbox's own transitions (the daemon's path) feed it as well as setLogStatus.
        _ = try store.write { try $0.claimNextOutbox(modem: "m") }
        try store.write { try $0.markOutboxSent(outboxID, reference: 7, modem: "m") }
        try store.write { try $0.markOutboxDelivered(outboxID) }
        let other = try store.write {
            try $0.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "BANK", status: .plain))
        }
        try store.write { try $0.setLogStatus(other, status: .plain, error: "same status, new error") }

        let events = try store.read { try $0.logEvents(after: 0) }
        #expect(events.map(\.status.rawValue) == ["queued", "sent", "delivered", "plain"])
        #expect(events.map(\.entry.id) == [messageID, messageID, messageID, other])
        #expect(events.map(\.isNew) == [true, false, false, true])
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        // Each event carries the message as it is now; the log's rows carry their latest event.
        #expect(events[0].entry.status == .delivered && events[0].entry.text == "hi")
        let log = try store.log()
        #expect(log.map(\.sequence) == [events[2].sequence, events[3].sequence])
        #expect(try store.read { try $0.latestLogSequence() } == events[3].sequence)

        // A cursor resumes after it; a selection and a limit apply.
        #expect(try store.read { try $0.logEvents(after: events[1].sequence) }.map(\.status.rawValue) == ["delivered", "plain"])
        #expect(try store.read { try $0.logEvents(after: 0, selection: LogSelection(contact: bob)) }.count == 3)
        // A status selects the events that put a message in it; a direction, the messages going that way.
        let delivered = try store.read { try $0.logEvents(after: 0, selection: LogSelection(status: .delivered)) }
        #expect(delivered.map(\.sequence) == [events[2].sequence])
        #expect(try store.read { try $0.logEvents(after: 0, selection: LogSelection(direction: .incoming)) }.map(\.entry.id) == [other])
        let none = LogSelection(contact: bob, direction: .incoming)
        #expect(try store.read { try $0.logEvents(after: 0, selection: none) }.isEmpty)
        #expect(try store.read { try $0.logEvents(after: 0, limit: 2) }.count == 2)
        #expect(try store.read { try $0.logEvents(after: events[3].sequence) }.isEmpty)
    }

    @Test("Removing a contact removes its events; sequence numbers are never reused", arguments: StoreBackendKind.allCases)
    func deletionAndReuse(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let bob = try store.addContact(name: "bob", number: TestStore.number("+447700900010"), pairingCode: Data())
        try store.write { _ = try $0.appendLog(NewLogEntry(direction: .incoming, contact: bob, status: .decrypted, text: "a")) }
        let before = try store.read { try $0.latestLogSequence() }
        try store.removeContact(named: "bob")
        #expect(try store.read { try $0.logEvents(after: 0) }.isEmpty)
        try store.write { _ = try $0.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "X", status: .plain)) }
        #expect(try store.read { try $0.logEvents(after: 0) }.map(\.sequence) == [before + 1])
    }

    @Test("The high-water marks of the log and the journal stay when their newest rows go", arguments: StoreBackendKind.allCases)
    func highWaterMarks(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        #expect(try store.read { try $0.logSequenceHighWater() } == 0)
        #expect(try store.read { try $0.eventIDHighWater() } == 0)
        #expect(try store.read { try $0.messageIDHighWater() } == 0)
        let bob = try store.addContact(name: "bob", number: TestStore.number("+447700900010"), pairingCode: Data())
        try store.write { tx in
            _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: bob, status: .decrypted, text: "a"))
            try tx.appendEvent(type: "contact.desync", time: Date(), contact: bob, payload: "{}")
        }
        let (log, journal) = try store.read { (try $0.latestLogSequence(), try $0.latestEventID()) }
        let message = try store.read { try $0.messageIDHighWater() }
        #expect(log > 0 && journal > 0 && message > 0)
        try store.removeContact(named: "bob")
        #expect(try store.read { try $0.latestLogSequence() } < log, "the newest change is gone")
        #expect(try store.read { try $0.logSequenceHighWater() } == log)
        #expect(try store.read { try $0.eventIDHighWater() } == journal)
        #expect(try store.read { try $0.messageIDHighWater() } == message, "the message is gone, its id is not")
    }

    @Test("A store written before v4-message-events gets one event per existing message, oldest first")
    func migrationBackfills() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.databasePath)
        try StoreSchema.migrator.migrate(queue, upTo: "v3-routing")
        try queue.write { db in
            for (index, status) in ["decrypted", "delivered"].enumerated() {
                try db.execute(
                    sql: "INSERT INTO messages (uuid, time, direction, status) VALUES (?, ?, 'in', ?)",
                    arguments: [UUID().uuidString.lowercased(), 1_800_000_000 + Double(index), status])
            }
        }
        try queue.close()
        let store = try directory.open()
        let events = try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT message_id, status FROM message_events ORDER BY seq")
        }
        #expect(events.map { $0["status"] as String } == ["decrypted", "delivered"])
        #expect(events.map { $0["message_id"] as Int64 } == [1, 2])
    }

    @Test("Contact names are read without a passphrase, and nothing is created where no database is")
    func contactNamesWithoutUnlocking() throws {
        let (directory, _, store) = try TestStore.unlockedStore()
        _ = try store.addContact(name: "Zoë", number: nil, pairingCode: Data())
        _ = try store.addContact(name: "bob", number: nil, pairingCode: Data())
        #expect(GatewayStore.contactNames(inDirectory: directory.url) == ["bob", "Zoë"])

        let missing = directory.url.appendingPathComponent("nothing-here")
        #expect(GatewayStore.contactNames(inDirectory: missing).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }
}
