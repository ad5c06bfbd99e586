import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The log: the newest messages, its change feed as an AsyncSequence, one message's history.
struct MessageLogTests {
    @Test(arguments: StoreBackendKind.allCases)
    func recentListsOldestFirstWithTheCursorOfTheSameSnapshot(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        for text in ["one", "two", "three"] { try Messages.queue(text, to: "bob", store: couple.alice, now: Date(), using: &rng) }
        let listing = try MessageLog.recent(limit: 2, store: couple.alice)
        #expect(listing.messages.map(\.text) == ["two", "three"])
        #expect(listing.cursor == listing.messages.last?.seq)
        #expect(throws: StoreError.self) { try MessageLog.recent(contact: "carol", limit: 1, store: couple.alice) }
        let line = try OperationsJSON.string(try #require(listing.messages.first))
        #expect(line.contains("\"direction\":\"out\"") && line.contains("\"error\":null") && line.contains("\"status\":\"queued\""))
    }

    @Test(arguments: StoreBackendKind.allCases)
    func theFeedEndsOnceCaughtUpUnlessFollowingAndThenYieldsLaterCommits(_ backend: StoreBackendKind) async throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("watched", to: "bob", store: couple.alice, now: Date(), using: &rng)
        var caughtUp: [LogChange] = []
        for try await change in try MessageLog.changes(after: 0, following: false, store: couple.alice) { caughtUp.append(change) }
        #expect(caughtUp.map(\.status) == [.queued] && caughtUp.first?.isNew == true)

        let store = couple.alice
        let follower = Task {
            var seen: [LogChange] = []
            for try await change in try MessageLog.changes(after: caughtUp[0].sequence, contact: "bob", following: true, store: store) {
                seen.append(change)
                if seen.count == 2 { break }
            }
            return seen
        }
        // Committed after the feed started: the daemon marking the SMS sent, then delivered.
        try store.write { tx in try tx.setLogStatus(queued.logID, status: .sent) }
        try store.write { tx in try tx.setLogStatus(queued.logID, status: .delivered) }
        let seen = try await follower.value
        #expect(seen.map(\.status) == [.sent, .delivered] && seen.allSatisfy { !$0.isNew && $0.message.id == queued.logID })
        let json = try OperationsJSON.string(seen[0])
        #expect(json.contains("\"seq\":\(seen[0].sequence)") && json.contains("\"status\":\"sent\""))
    }

    /// A following feed that caught up sleeps on the store's commit signal, and a commit of this
    /// process wakes it at once: the daemon's event streams do not poll at a short interval.
    @Test(arguments: StoreBackendKind.allCases)
    func aCaughtUpFeedWaitsForTheNextCommitOfThisProcess(_ backend: StoreBackendKind) async throws {
        let couple = try Couple(on: backend)
        let store = couple.alice
        let commits = store.gateway.commits
        let cursor = try MessageLog.recent(limit: 1, store: store).cursor
        let follower = Task { () async throws -> LogChange? in
            for try await change in try MessageLog.changes(after: cursor, following: true, store: store) { return change }
            return nil
        }
        #expect(await eventually { commits.waiting == 1 })
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("woken", to: "bob", store: store, now: Date(), using: &rng)
        #expect(try await follower.value?.message.id == queued.logID)
        #expect(commits.waiting == 0)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aFollowingFeedStopsWhenItsTaskIsCancelled(_ backend: StoreBackendKind) async throws {
        let couple = try Couple(on: backend)
        let store = couple.alice
        let follower = Task {
            for try await _ in try MessageLog.changes(after: 0, following: true, store: store) {}
        }
        follower.cancel()
        await #expect(throws: CancellationError.self) { try await follower.value }
        // Cancelled while it waits for a commit.
        let asleep = Task {
            for try await _ in try MessageLog.changes(after: 0, following: true, store: store) {}
        }
        #expect(await eventually { store.gateway.commits.waiting == 1 })
        asleep.cancel()
        await #expect(throws: CancellationError.self) { try await asleep.value }
        #expect(store.gateway.commits.waiting == 0)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func oneMessageComesWithEveryStatusItTook(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("tracked", to: "bob", store: couple.alice, now: Date(), using: &rng)
        try couple.alice.write { tx in try tx.setLogStatus(queued.logID, status: .sent) }
        let history = try MessageLog.message(id: queued.logID, store: couple.alice)
        #expect(history.message.text == "tracked" && history.message.status == .sent)
        #expect(history.history.map(\.status) == [.queued, .sent])
        #expect(history.history.map(\.sequence) == history.history.map(\.sequence).sorted())
        let json = try OperationsJSON.string(history)
        #expect(json.contains("\"history\":[{\"seq\":") && json.contains("\"text\":\"tracked\""))
        #expect(throws: StoreError.self) { try MessageLog.message(id: queued.logID + 100, store: couple.alice) }
    }
}
