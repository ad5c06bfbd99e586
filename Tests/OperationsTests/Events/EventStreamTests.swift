import Foundation
import Operations
import Store
import Testing

/// The event stream's one cursor over the message log and the journal's contact and modem events.
struct EventStreamTests {
    /// Everything after `position` that is committed now.
    private func read(after position: EventStream.Position, _ store: UnlockedStore) async throws -> [EventStream.Event] {
        var events: [EventStream.Event] = []
        for try await event in EventStream.since(position, following: false, store: store) { events.append(event) }
        return events
    }

    private func kind(_ event: EventStream.Event) -> String {
        switch event.item {
        case .log(let change): "message \(change.message.text ?? "") \(change.status.rawValue)"
        case .journal(let event): event.type
        }
    }

    @Test("Log changes and contact and modem events come in one stream; resuming after any id loses and repeats nothing")
    func eventsOfAllKindsAcrossAReconnect() async throws {
        let couple = try Couple()
        let store = couple.alice
        let contact = try store.read { try $0.contact(named: "bob") }
        var rng = SystemRandomNumberGenerator()
        let start = try EventStream.latest(store: store)
        _ = try Messages.queue("one", to: "bob", store: store, now: Date(), using: &rng)
        try store.write { tx in try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true)) }
        let two = try Messages.queue("two", to: "bob", store: store, now: Date(), using: &rng)
        let before = try await read(after: start, store)
        #expect(before.map(kind) == ["message one queued", "modem.up", "message two queued"])
        // Disconnected after the first event; more of every kind happens meanwhile.
        let last = try #require(before.first)
        try store.write { tx in
            try tx.setLogStatus(two.logID, status: .sent)
            try EventJournal.noteVerificationFailure(of: contact, failures: SyncPolicy.failureThreshold, in: tx, now: Date())
            try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .recovering, connected: false))
        }
        _ = try Messages.queue("three", to: "bob", store: store, now: Date(), using: &rng)
        let resumed = try await read(after: try EventStream.position(after: last.id, store: store), store)
        let whole = try await read(after: start, store)
        #expect(([last] + resumed).map(\.id) == whole.map(\.id), "the two connections together saw the whole stream, once")
        // The three changes of one transaction share its moment; their order among themselves is the clock's.
        #expect(Array(whole.map(kind).prefix(3)) == ["message one queued", "modem.up", "message two queued"])
        #expect(Set(whole.map(kind).dropFirst(3).dropLast()) == ["message two sent", "contact.desync", "modem.down"])
        #expect(whole.map(kind).last == "message three queued")
        #expect(zip(whole, whole.dropFirst()).allSatisfy { $0.id < $1.id }, "ids increase strictly")
        #expect(!whole.contains { if case .journal(let event) = $0.item { event.type == "message.sent" } else { false } })
    }

    @Test("An id from before the journal was merged in resumes the log after it and the journal at its end")
    func anOldIdIsALogSequence() async throws {
        let couple = try Couple()
        var rng = SystemRandomNumberGenerator()
        _ = try Messages.queue("one", to: "bob", store: couple.alice, now: Date(), using: &rng)
        try couple.alice.write { tx in try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true)) }
        let old = try await read(after: EventStream.Position(log: 0, journal: 0), couple.alice)
        #expect(old.map(kind) == ["message one queued", "modem.up"], "0 is the start of both")
        _ = try Messages.queue("two", to: "bob", store: couple.alice, now: Date(), using: &rng)
        let fromOld = try await read(after: try EventStream.position(after: 1, store: couple.alice), couple.alice)
        #expect(fromOld.map(kind) == ["message two queued"])
    }

    @Test("An id beyond what the store handed out is refused; the newest one stays good after log prune")
    func anIdAheadOfTheStoreIsRefused() throws {
        let store = try Couple().alice
        try store.write { tx in
            _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "BANK", status: .plain))
            try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true))
        }
        let newest = try EventStream.latest(store: store)
        #expect(try store.pruneLog(before: Date().addingTimeInterval(3600)).deleted == 1)
        #expect(try EventStream.latest(store: store).log < newest.log, "the newest change is gone")
        #expect(try EventStream.position(after: newest.id, store: store) == newest, "a cursor the store issued stays good")
        #expect(try EventStream.position(after: newest.log, store: store).log == newest.log)
        for ahead in [99_000_000_000, newest.id + 1, EventStream.Position(log: newest.log + 1, journal: 0).id, newest.log + 1] {
            #expect(throws: CursorError.eventAhead(ahead)) { try EventStream.position(after: ahead, store: store) }
        }
    }
}
