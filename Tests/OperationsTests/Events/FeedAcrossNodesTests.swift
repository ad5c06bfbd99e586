import Foundation
import Store
import Synchronization
import TestSupport
import Testing

@testable import Operations

/// Two nodes of one PostgreSQL store: a stream followed on one sees the other's commits as they
/// are made, through the node's listener (``Store/StoreNotices``), not at its fallback read.
@Suite("Streams across the nodes of one store")
struct FeedAcrossNodesTests {
    /// The last message each stream handed out.
    final class Seen: Sendable {
        private let ids = Mutex<[Int64?]>([nil, nil])
        func log(_ id: Int64) { ids.withLock { $0[0] = id } }
        func event(_ id: Int64) { ids.withLock { $0[1] = id } }
        var both: [Int64?] { ids.withLock { $0 } }
    }

    @Test("A stream on one node sees a message queued on another without waiting for its fallback read")
    func anotherNodesMessageWakesTheStream() async throws {
        let couple = try Couple(on: .postgresql)
        let nodeA = couple.alice
        let nodeB = try couple.aliceLocation.open().unlock(passphrase: TestStore.passphrase)
        let notices = try #require(nodeB.gateway.notices(logger: TestStore.logger))
        let listening = Task { await notices.run {} }
        defer { listening.cancel() }
        #expect(await eventually { nodeB.gateway.commits.hearsOtherNodes })

        // Both streams of node B wait an hour for a commit before they would read again anyway.
        var log = try MessageLog.changes(after: try MessageLog.recent(limit: 1, store: nodeB).cursor, following: true, store: nodeB)
        log.fallback = .seconds(3600)
        var events = EventStream.since(try EventStream.latest(store: nodeB), store: nodeB)
        events.fallback = .seconds(3600)
        let seen = Seen()
        let followingLog = Task { [log] in for try await change in log { seen.log(change.message.id) } }
        let followingEvents = Task { [events] in
            for try await event in events {
                if case .log(let change) = event.item { seen.event(change.message.id) }
            }
        }
        defer {
            followingLog.cancel()
            followingEvents.cancel()
        }
        // Both asleep on node B's commits before node A writes.
        #expect(await eventually { nodeB.gateway.commits.waiting == 2 })

        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("from node A", to: "bob", store: nodeA, now: Date(), using: &rng)
        #expect(await eventually { seen.both == [queued.logID, queued.logID] })
    }

    @Test("A following feed that listens itself, as `log --follow` does, sees another node's message at once and stops listening with it")
    func aCommandsFeedListensItself() async throws {
        let couple = try Couple(on: .postgresql)
        let nodeA = couple.alice
        let command = try couple.aliceLocation.open().unlock(passphrase: TestStore.passphrase)
        let commits = command.gateway.commits
        var log = try MessageLog.changes(
            after: try MessageLog.recent(limit: 1, store: command).cursor, following: true, listening: true, store: command)
        log.fallback = .seconds(3600)
        let seen = Seen()
        let following = Task { [log] in for try await change in log { seen.log(change.message.id) } }
        defer { following.cancel() }
        #expect(await eventually { commits.hearsOtherNodes && commits.waiting == 1 })

        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("from node A", to: "bob", store: nodeA, now: Date(), using: &rng)
        #expect(await eventually { seen.both[0] == queued.logID })
        following.cancel()
        _ = await following.result
        #expect(await eventually { !commits.hearsOtherNodes })
    }
}
