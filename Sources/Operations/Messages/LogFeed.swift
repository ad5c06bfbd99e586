import Store

/// The log's changes as they are committed (``MessageLog/changes(after:contact:following:store:)``).
public typealias LogFeed = StoreFeed<LogChange>

/// A table the store appends to, read in order from a cursor as an `AsyncSequence`: the log's
/// changes (``LogFeed``, the `message_events` table) and the event journal (``EventFeed``).
///
/// The daemon and the commands are other processes, and SQLite tells no process of another's
/// commits, so a following feed reads again after ``pollInterval`` when nothing changed, and at
/// once after a batch. Reading is cheap: one indexed query.
public struct StoreFeed<Element: Sendable>: AsyncSequence, Sendable {
    let store: UnlockedStore
    let cursor: Int64
    let following: Bool
    /// Reads at most ``batchSize`` elements after a cursor, oldest first.
    let read: @Sendable (StoreReader, Int64) throws -> [Element]
    /// An element's cursor: what the next read starts after.
    let position: @Sendable (Element) -> Int64

    /// How long a following feed waits before reading again when it found nothing.
    public static var pollInterval: Duration { .milliseconds(200) }
    /// Elements read at once.
    static var batchSize: Int { 500 }

    public func makeAsyncIterator() -> Iterator {
        Iterator(feed: self, cursor: cursor)
    }

    /// Reads the table in batches; throws `CancellationError` when its task is cancelled while it waits.
    public struct Iterator: AsyncIteratorProtocol {
        let feed: StoreFeed
        var cursor: Int64
        var pending: [Element] = []

        public mutating func next() async throws -> Element? {
            while pending.isEmpty {
                let after = cursor
                let feed = feed
                pending = try feed.store.read { reader in try feed.read(reader, after) }
                guard pending.isEmpty else { break }
                guard feed.following else { return nil }
                try await Task.sleep(for: StoreFeed.pollInterval)
            }
            let element = pending.removeFirst()
            cursor = feed.position(element)
            return element
        }
    }
}
