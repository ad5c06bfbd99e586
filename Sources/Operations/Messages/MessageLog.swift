import Foundation
public import Store

/// The message log: its newest messages, its changes as they are committed, and one message with
/// its history. Reads only; each from one snapshot.
public enum MessageLog {
    /// The newest messages, oldest first, and the feed's cursor at the same snapshot.
    public struct Listing: Sendable, Equatable {
        public var messages: [LoggedMessage]
        /// The latest change in the snapshot: following from it misses and repeats nothing.
        public var cursor: Int64
    }

    /// The newest `limit` messages (of one contact, or all), oldest first, with the cursor to
    /// follow the log from.
    ///
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown contact.
    public static func recent(contact contactName: String? = nil, limit: Int, store: UnlockedStore) throws -> Listing {
        try store.read { reader in
            let contact = try contactName.map { try reader.contact(named: $0) }
            let entries = try reader.log(contact: contact, limit: limit)
            return Listing(messages: entries.map(LoggedMessage.init), cursor: try reader.latestLogSequence())
        }
    }

    /// The changes after `cursor`, oldest first, as an `AsyncSequence`: it ends once it has caught
    /// up, or, `following`, goes on with each change as it is committed (by this process, the
    /// daemon or another command) until the task is cancelled.
    ///
    /// - Parameters:
    ///   - cursor: The last change already handled (0 for the whole feed): a `seq` of a JSON line,
    ///     or ``Listing/cursor``.
    ///   - contactName: Only this contact's messages, or nil for all.
    ///   - following: Whether to wait for new changes once caught up.
    ///   - listening: Whether, following, it listens for the other processes' commits itself on
    ///     PostgreSQL (a command's process, where no daemon hears them): each is then printed as
    ///     it commits rather than at the next read a second later.
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown contact.
    public static func changes(
        after cursor: Int64, contact contactName: String? = nil, following: Bool, listening: Bool = false, store: UnlockedStore
    ) throws -> LogFeed {
        let contact = try contactName.map { name in try store.read { try $0.contact(named: name) } }
        var feed = LogFeed(store: store, cursor: cursor, following: following) { reader, after in
            try reader.logEvents(after: after, contact: contact, limit: LogFeed.batchSize).map(LogChange.init)
        } position: {
            $0.sequence
        }
        feed.listening = listening
        return feed
    }

    /// One message and every status it took.
    ///
    /// - Throws: ``Store/StoreError/notFound(_:)`` when no message has the id.
    public static func message(id: Int64, store: UnlockedStore) throws -> MessageHistory {
        try store.read { reader in
            MessageHistory(message: LoggedMessage(try reader.logEntry(id: id)), history: try reader.stateChanges(ofMessage: id))
        }
    }
}
