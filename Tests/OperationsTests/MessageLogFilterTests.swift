import Failures
import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The log narrowed by contact, direction and status in the whole log (not in its newest page),
/// the search for words in texts and its depth, and the change feed narrowed the same way.
struct MessageLogFilterTests {
    /// `count` outgoing messages to `contact` logged in one transaction, texts `"<prefix> <n>"`.
    private func log(_ count: Int, _ prefix: String, status: MessageStatus = .queued, to contact: String, in store: UnlockedStore)
        throws
    {
        try store.write { tx in
            let contact = try tx.contact(named: contact)
            for index in 0..<count {
                _ = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: contact, status: status, text: "\(prefix) \(index)"))
            }
        }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func filtersLookThroughTheWholeLogNotOnlyTheNewestPage(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        try log(1, "lost", status: .failed, to: "bob", in: couple.alice)
        try log(120, "later", to: "bob", in: couple.alice)
        let failed = try MessageLog.recent(status: .failed, limit: 100, store: couple.alice)
        #expect(failed.messages.map(\.text) == ["lost 0"] && failed.searchedAll)
        #expect(try MessageLog.recent(direction: .incoming, limit: 100, store: couple.alice).messages.isEmpty)
        let outgoing = try MessageLog.recent(contact: "bob", direction: .outgoing, limit: 3, store: couple.alice)
        #expect(outgoing.messages.map(\.text) == ["later 117", "later 118", "later 119"])
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aSearchMatchesEveryWordAndSaysWhereItStopped(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        try log(1, "Water at the NORTH well", to: "bob", in: couple.alice)
        try log(3, "water at the south well", to: "bob", in: couple.alice)
        let found = try MessageLog.recent(matching: "north water", limit: 10, store: couple.alice)
        #expect(found.messages.map(\.text) == ["Water at the NORTH well 0"] && found.searchedAll)
        #expect(try MessageLog.recent(matching: "water", limit: 2, store: couple.alice).messages.count == 2)

        // Beyond the newest searchDepth messages the search stops, and says so.
        try log(MessageLog.searchDepth, "filler", to: "bob", in: couple.alice)
        let deep = try MessageLog.recent(matching: "north", limit: 10, store: couple.alice)
        #expect(deep.messages.isEmpty && !deep.searchedAll)
        let narrowed = try MessageLog.recent(contact: "bob", status: .queued, matching: "filler 4999", limit: 1, store: couple.alice)
        #expect(narrowed.messages.map(\.text) == ["filler 4999"] && narrowed.searchedAll)
    }

    @Test func searchesAreCountedPerReaderAndRefusedOverTheLimitUntilTheWindowPassed() throws {
        let couple = try Couple(on: .sqlite)
        try log(2, "water", to: "bob", in: couple.alice)
        let throttle = SearchThrottle(limit: 2, window: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func search(_ reader: String, _ words: String? = "water", at seconds: TimeInterval) throws -> Int {
            try MessageLog.recent(
                matching: words, limit: 10, searchedBy: SearchThrottle.Searcher(throttle, reader: reader, now: start + seconds),
                store: couple.alice
            ).messages.count
        }
        #expect(try search("one", at: 0) == 2 && search("one", at: 1) == 2)
        #expect(throws: MessageError.tooManySearches(until: start + 60)) { try search("one", at: 2) }
        // Without words nothing is searched, so nothing counted; another reader has its own count.
        #expect(try search("one", nil, at: 3) == 2 && search("one", "", at: 3) == 2 && search("two", at: 3) == 2)
        #expect(MessageError.tooManySearches(until: start + 60).category == .locked)
        #expect(try search("one", at: 60) == 2, "the window passed")
    }

    @Test(arguments: StoreBackendKind.allCases)
    func theFeedNarrowedToAStatusYieldsTheChangesIntoIt(_ backend: StoreBackendKind) async throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let first = try Messages.queue("first", to: "bob", store: couple.alice, now: Date(), using: &rng)
        let second = try Messages.queue("second", to: "bob", store: couple.alice, now: Date(), using: &rng)
        try couple.alice.write { tx in
            try tx.setLogStatus(first.logID, status: .sent)
            try tx.setLogStatus(second.logID, status: .failed, error: "refused")
            try tx.setLogStatus(first.logID, status: .delivered)
        }
        var changes: [LogChange] = []
        for try await change in try MessageLog.changes(after: 0, status: .failed, following: false, store: couple.alice) {
            changes.append(change)
        }
        #expect(changes.map(\.message.id) == [second.logID] && changes.map(\.status) == [.failed])
        var outgoing = 0
        for try await _ in try MessageLog.changes(after: 0, direction: .outgoing, following: false, store: couple.alice) { outgoing += 1 }
        #expect(outgoing == 5)
    }
}
