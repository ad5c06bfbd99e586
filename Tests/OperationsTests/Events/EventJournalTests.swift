import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The event journal: each event written in the transaction of its cause, without any text.
struct EventJournalTests {
    private func events(_ store: UnlockedStore) throws -> [JournalEvent] {
        try store.read { try $0.events(after: 0).map(JournalEvent.init) }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aDecryptedMessageIsJournalledWithoutItsTextAndTheTextIsReadOnlyOnRequest(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let sealed = try Messages.encrypt("meet at noon", for: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(try events(couple.alice).isEmpty, "encrypting for copy and paste is no event")
        let opened = try Messages.decrypt(sealed.ciphertexts[0], from: "alice", store: couple.bob, now: Date(), using: &rng)
        let journal = try events(couple.bob)
        let event = try #require(journal.first)
        #expect(journal.count == 1 && event.eventType == .messageReceived)
        #expect(event.messageID == opened.logID)
        let json = try OperationsJSON.string(event)
        #expect(!json.contains("noon"), "the journal holds no text: \(json)")
        #expect(event.data["message"]?["contact"] == .string("alice") && event.data["message"]?["direction"] == .string("in"))
        let withText = try couple.bob.read { try event.includingText(from: $0) }
        #expect(withText.data["message"]?["text"] == .string("meet at noon"))
        #expect(try OperationsJSON.string(withText).contains("\"type\":\"message.received\""))
    }

    @Test(arguments: StoreBackendKind.allCases)
    func anEventCommitsWithItsCauseAndRollsBackWithIt(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let contact = try couple.bob.read { try $0.contact(named: "alice") }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try couple.bob.write { tx in
                try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .decrypted, text: "gone"))
                throw Abort()
            }
        }
        #expect(try events(couple.bob).isEmpty)
        try couple.bob.write { tx in
            try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .decrypted, text: "kept"))
        }
        #expect(try events(couple.bob).map(\.type) == ["message.received"])
    }

    @Test(arguments: StoreBackendKind.allCases)
    func removingAContactOrPruningItsMessagesDeletesTheirEventsWithTheNameAndNumber(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let contact = try couple.bob.read { try $0.contact(named: "alice") }
        try couple.bob.write { tx in
            try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true))
            try EventJournal.noteVerificationFailure(of: contact, failures: 3, in: tx, now: Date())
            try tx.appendLog(
                NewLogEntry(time: Date(timeIntervalSinceNow: -3600), direction: .incoming, contact: contact, status: .decrypted, text: "hi")
            )
        }
        #expect(try events(couple.bob).map(\.type) == ["modem.up", "contact.desync", "message.received"])
        _ = try couple.bob.pruneLog(before: Date(timeIntervalSinceNow: -60))
        #expect(try events(couple.bob).map(\.type) == ["modem.up", "contact.desync"])
        try couple.bob.write { tx in try tx.removeContact(named: "alice") }
        #expect(try events(couple.bob).map(\.type) == ["modem.up"])
    }

    @Test(arguments: StoreBackendKind.allCases)
    func pruningDeletesOldEventsAndFinishedDeliveriesButKeepsWhatAWebhookStillNeeds(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let old = Date(timeIntervalSinceNow: -7200)
        let url = "http://127.0.0.1:9/hook"
        let pending = try couple.bob.write { tx -> WebhookDeliveryRecord in
            _ = try tx.ensureWebhookEndpoint(url: url, now: old)
            for state in [ModemPhase.ready, .recovering, .ready] {
                try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: state, connected: true, updatedAt: old))
            }
            let ids = try tx.events(after: 0).map(\.id)
            var delivered = try tx.insertWebhookDelivery(endpoint: url, eventID: ids[0], now: old)
            delivered.state = .delivered
            try tx.saveWebhookDelivery(delivered, now: old)
            try tx.advanceWebhookCursor(url: url, to: ids[1])
            return try tx.insertWebhookDelivery(endpoint: url, eventID: ids[1], now: old)
        }
        let first = try couple.bob.pruneLog(before: Date(timeIntervalSinceNow: -60))
        #expect(first.eventsDeleted == 1 && first.deliveriesDeleted == 1)
        #expect(try events(couple.bob).map(\.type) == ["modem.down", "modem.up"], "pending and not yet given stay")
        try couple.bob.write { tx in
            var done = pending
            done.state = .failed
            try tx.saveWebhookDelivery(done, now: old)
            try tx.setWebhookEndpointDisabled(url: url, reason: "410 Gone", now: old)
        }
        let second = try couple.bob.pruneLog(before: Date(timeIntervalSinceNow: -60))
        #expect(second.eventsDeleted == 2 && second.deliveriesDeleted == 1, "a disabled endpoint holds nothing back")
        #expect(try events(couple.bob).isEmpty)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func anOutgoingMessageIsJournalledWhenSentDeliveredOrFailedButNotWhenQueued(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let first = try Messages.queue("one", to: "bob", store: couple.alice, now: Date(), using: &rng)
        let second = try Messages.queue("two", to: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(try events(couple.alice).isEmpty)
        try couple.alice.write { tx in
            try tx.setLogStatus(first.logID, status: .sent)
            try tx.setLogStatus(first.logID, status: .delivered)
            try tx.setLogStatus(second.logID, status: .failed, error: "The number does not exist.")
        }
        let journal = try events(couple.alice)
        #expect(journal.map(\.type) == ["message.sent", "message.delivered", "message.failed"])
        #expect(journal.map(\.messageID) == [first.logID, first.logID, second.logID])
        #expect(journal[2].data["message"]?["error"] == .string("The number does not exist."))
        #expect(journal.map(\.id) == journal.map(\.id).sorted() && Set(journal.map(\.id)).count == 3)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aModemIsJournalledUpWhenItBecomesReadyAndDownWhenItStopsBeing(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        for state in [ModemPhase.connecting, .ready, .ready, .recovering, .connecting, .ready, .stopped] {
            try couple.alice.write { tx in try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: state, connected: state == .ready)) }
        }
        let journal = try events(couple.alice)
        #expect(journal.map(\.type) == ["modem.up", "modem.down", "modem.up", "modem.down"])
        #expect(journal[1].data["modem"]?["state"] == .string("recovering") && journal[1].data["modem"]?["name"] == .string("m1"))
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aContactIsJournalledOutOfSyncOncePerRunOfFailuresAndResyncedWhenNewKeysAreInForce(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let contact = try couple.bob.read { try $0.contact(named: "alice") }
        try couple.bob.write { tx in
            for failures in 1...5 { try EventJournal.noteVerificationFailure(of: contact, failures: failures, in: tx, now: Date()) }
            try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .resynced, text: "Resync completed."))
        }
        let journal = try events(couple.bob)
        #expect(journal.map(\.type) == ["contact.desync", "contact.resynced"])
        #expect(journal[0].data["contact"] == .string("alice") && journal[0].data["sync"]?["consecutiveFailures"] == .number(3))
        #expect(!(try OperationsJSON.string(journal[1])).contains("Resync completed"))
    }

    @Test(arguments: StoreBackendKind.allCases)
    func theFeedFollowsNewEventsOfTheAskedTypesInOrder(_ backend: StoreBackendKind) async throws {
        let couple = try Couple(on: backend)
        let store = couple.alice
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("watched", to: "bob", store: store, now: Date(), using: &rng)
        try store.write { tx in try tx.setLogStatus(queued.logID, status: .sent) }
        let start = try EventJournal.latest(store: store)
        let follower = Task {
            var seen: [JournalEvent] = []
            for try await event in EventJournal.since(start, types: [.messageDelivered, .modemUp], store: store) {
                seen.append(event)
                if seen.count == 2 { break }
            }
            return seen
        }
        try store.write { tx in try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true)) }
        try store.write { tx in try tx.setLogStatus(queued.logID, status: .delivered) }
        let seen = try await follower.value
        #expect(seen.map(\.type) == ["modem.up", "message.delivered"] && seen.allSatisfy { $0.id > start })
        var caughtUp: [String] = []
        for try await event in EventJournal.since(0, following: false, store: store) { caughtUp.append(event.type) }
        #expect(caughtUp == ["message.sent", "modem.up", "message.delivered"])
    }
}
