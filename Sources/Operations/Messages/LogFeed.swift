import Dispatch
import Store

/// The log's changes as they are committed (``MessageLog/changes(after:contact:direction:status:following:listening:store:)``).
public typealias LogFeed = StoreFeed<LogChange>

/// A table the store appends to, read in order from a cursor as an `AsyncSequence`: the log's
/// changes (``LogFeed``, the `message_events` table) and the event journal (``EventFeed``).
///
/// A following feed that found nothing waits for the store's next commit in this process
/// (``Store/CommitSignal``): the daemon's own writes, its API's and its console's wake its streams
/// at once (under load, one read per ``Store/CommitSignal/gap`` at most), and on PostgreSQL so do
/// the other nodes' while the daemon listens for them (``Store/StoreNotices``). It waits
/// ``pollInterval`` at most, for the commits no one tells it of: a command's on SQLite, another
/// node's while the listener reconnects. A feed in a process without a daemon (`log --follow`)
/// listens itself while it is iterated (``listening``). After a batch it reads again at once.
/// Reading is cheap: one indexed query. Each iterator reads on a queue of its own (``Iterator/reads``),
/// never on a thread of Swift's pool: on PostgreSQL a read holds its thread for a round trip to
/// the server, and longer while a lock holds the table, and every event stream of the daemon reads
/// so. A serial queue is given a thread whenever it has work (a concurrent queue shares a few,
/// which hanging reads would hold as they would the pool's).
public struct StoreFeed<Element: Sendable>: AsyncSequence, Sendable {
    let store: UnlockedStore
    let cursor: Int64
    let following: Bool
    /// Reads at most ``batchSize`` elements after a cursor, oldest first.
    let read: @Sendable (StoreReader, Int64) throws -> [Element]
    /// An element's cursor: what the next read starts after.
    let position: @Sendable (Element) -> Int64

    /// How long a following feed waits for a commit in this process before reading again anyway.
    public static var pollInterval: Duration { .seconds(1) }
    /// How long this feed waits for a commit: ``pollInterval``, longer in a test that shows a
    /// commit, not the deadline, woke it.
    var fallback: Duration = Self.pollInterval
    /// Whether the feed, following, listens for the other processes' commits itself while it is
    /// iterated (PostgreSQL: its own connection, ``Store/GatewayStore/hearOtherNodes()``): for a
    /// process where no daemon's listener runs.
    var listening = false
    /// Elements read at once.
    static var batchSize: Int { 500 }

    public func makeAsyncIterator() -> Iterator {
        Iterator(feed: self, cursor: cursor, hearing: following && listening ? Hearing(store.gateway.hearOtherNodes()) : nil)
    }

    /// The listener of a feed that listens itself: stopped once no iterator holds it.
    final class Hearing: Sendable {
        let task: Task<Void, Never>?
        init(_ task: Task<Void, Never>?) { self.task = task }
        deinit { task?.cancel() }
    }

    /// Reads the table in batches; throws `CancellationError` when its task is cancelled while it waits.
    public struct Iterator: AsyncIteratorProtocol {
        let feed: StoreFeed
        var cursor: Int64
        var pending: [Element] = []
        let hearing: Hearing?
        /// Where this iterator's reads run.
        let reads = DispatchQueue(label: "smsgw.operations.feed")

        public mutating func next() async throws -> Element? {
            while pending.isEmpty {
                let after = cursor
                let feed = feed
                let commits = feed.store.gateway.commits
                // Noted before the read: a commit during the read ends the wait below at once.
                let seen = commits.count
                pending = try await withCheckedThrowingContinuation { continuation in
                    reads.async { continuation.resume(with: Result { try feed.store.read { reader in try feed.read(reader, after) } }) }
                }
                guard pending.isEmpty else { break }
                guard feed.following else { return nil }
                let readAt = ContinuousClock.now
                await commits.wait(after: seen, since: readAt, until: readAt + feed.fallback)
                try Task.checkCancellation()
            }
            let element = pending.removeFirst()
            cursor = feed.position(element)
            return element
        }
    }
}
