import Store

/// The log's changes as they are committed (``MessageLog/changes(after:contact:following:store:)``).
///
/// The daemon and the commands are other processes, and SQLite tells no process of another's
/// commits, so the feed (the `message_events` table) is read again after ``pollInterval`` when
/// nothing changed, and at once after a batch. Reading is cheap: one indexed query.
public struct LogFeed: AsyncSequence, Sendable {
    public typealias Element = LogChange

    let store: UnlockedStore
    let contact: Contact?
    let cursor: Int64
    let following: Bool

    /// How long a following feed waits before reading again when it found nothing.
    public static let pollInterval: Duration = .milliseconds(200)
    /// Changes read at once.
    static let batchSize = 500

    public func makeAsyncIterator() -> Iterator {
        Iterator(feed: self, cursor: cursor)
    }

    /// Reads the feed in batches; throws `CancellationError` when its task is cancelled while it waits.
    public struct Iterator: AsyncIteratorProtocol {
        let feed: LogFeed
        var cursor: Int64
        var pending: [LogChange] = []

        public mutating func next() async throws -> LogChange? {
            while pending.isEmpty {
                let after = cursor
                let feed = feed
                pending = try feed.store.read { reader in
                    try reader.logEvents(after: after, contact: feed.contact, limit: LogFeed.batchSize).map(LogChange.init)
                }
                guard pending.isEmpty else { break }
                guard feed.following else { return nil }
                try await Task.sleep(for: LogFeed.pollInterval)
            }
            let change = pending.removeFirst()
            cursor = change.sequence
            return change
        }
    }
}
