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
        /// With words to match: whether every message that passes the other filters was looked
        /// at; false when the search stopped after ``MessageLog/searchDepth`` of them.
        public var searchedAll = true
    }

    /// How many of the newest messages that pass the other filters a search for words reads at
    /// most: texts are stored encrypted, so they are matched as they are read.
    public static let searchDepth = 5_000

    /// The most characters and words a search may have: each word is looked for in every text
    /// read, so a longer one only costs the daemon time (and a long query string is an attack).
    public static let searchLimits = (characters: 100, words: 10)

    /// The newest `limit` messages that pass the filters (each nil for any), oldest first, with
    /// the cursor to follow the log from.
    ///
    /// - Parameters:
    ///   - contactName: Only this contact's messages.
    ///   - direction: Only this direction.
    ///   - status: Only messages now in this status.
    ///   - words: Only messages whose text holds every one of these words, without regard to case
    ///     (split at spaces), looked for in the newest ``searchDepth`` of the others.
    ///   - searcher: Who searches, counted by their ``SearchThrottle`` when there are words to
    ///     look for (nil: not counted, as for the CLI's own user).
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown contact;
    ///   ``MessageError/searchTooLong(characters:words:)`` (invalid input) for words over
    ///   ``searchLimits``, ``MessageError/tooManySearches(until:)`` for a searcher over its
    ///   throttle's limit, before anything is read.
    public static func recent(
        contact contactName: String? = nil, direction: MessageDirection? = nil, status: MessageStatus? = nil,
        matching words: String? = nil, limit: Int, searchedBy searcher: SearchThrottle.Searcher? = nil, store: UnlockedStore
    ) throws -> Listing {
        // Split and lowered once, not for each of up to searchDepth texts.
        let wanted = (words ?? "").lowercased().split(separator: " ")
        // Scalars, not characters: one character may carry any number of combining marks.
        if let words, words.unicodeScalars.count > searchLimits.characters || wanted.count > searchLimits.words {
            throw MessageError.searchTooLong(characters: words.unicodeScalars.count, words: wanted.count)
        }
        if !wanted.isEmpty, let searcher { try searcher.throttle.admit(searcher.reader, now: searcher.now) }
        return try store.read { reader in
            let contact = try contactName.map { try reader.contact(named: $0) }
            let selection = LogSelection(contact: contact, direction: direction, status: status)
            let cursor = try reader.latestLogSequence()
            guard !wanted.isEmpty else {
                let entries = try reader.logPage(selection, afterId: 0, newestFirst: true, limit: limit)
                return Listing(messages: entries.reversed().map(LoggedMessage.init), cursor: cursor)
            }
            var found: [LoggedMessage] = []
            var (after, read, exhausted) = (Int64(0), 0, false)
            while found.count < limit, read < searchDepth {
                let size = min(LogFeed.batchSize, searchDepth - read)
                let batch = try reader.logPage(selection, afterId: after, newestFirst: true, limit: size)
                found += batch.map(LoggedMessage.init).filter { holds($0, every: wanted) }
                read += batch.count
                guard batch.count == size, let last = batch.last else {
                    exhausted = true
                    break
                }
                after = last.id
            }
            if !exhausted, found.count < limit {
                exhausted = try reader.logPage(selection, afterId: after, newestFirst: true, limit: 1).isEmpty
            }
            return Listing(messages: Array(found.prefix(limit).reversed()), cursor: cursor, searchedAll: found.count >= limit || exhausted)
        }
    }

    /// Whether `message`'s text holds every one of `words` (lower case) without regard to case.
    static func holds(_ message: LoggedMessage, every words: [Substring]) -> Bool {
        let haystack = (message.text ?? "").lowercased()
        return words.allSatisfy { haystack.contains($0) }
    }

    /// The changes after `cursor`, oldest first, as an `AsyncSequence`: it ends once it has caught
    /// up, or, `following`, goes on with each change as it is committed (by this process, the
    /// daemon or another command) until the task is cancelled.
    ///
    /// - Parameters:
    ///   - cursor: The last change already handled (0 for the whole feed): a `seq` of a JSON line,
    ///     or ``Listing/cursor``.
    ///   - contactName: Only this contact's messages, or nil for all.
    ///   - direction: Only this direction, or nil for both.
    ///   - status: Only the changes that put a message in this status, or nil for all.
    ///   - following: Whether to wait for new changes once caught up.
    ///   - listening: Whether, following, it listens for the other processes' commits itself on
    ///     PostgreSQL (a command's process, where no daemon hears them): each is then printed as
    ///     it commits rather than at the next read a second later.
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown contact.
    public static func changes(
        after cursor: Int64, contact contactName: String? = nil, direction: MessageDirection? = nil, status: MessageStatus? = nil,
        following: Bool, listening: Bool = false, store: UnlockedStore
    ) throws -> LogFeed {
        let contact = try contactName.map { name in try store.read { try $0.contact(named: name) } }
        let selection = LogSelection(contact: contact, direction: direction, status: status)
        var feed = LogFeed(store: store, cursor: cursor, following: following) { reader, after in
            try reader.logEvents(after: after, selection: selection, limit: LogFeed.batchSize).map(LogChange.init)
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
