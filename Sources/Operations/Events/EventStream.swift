public import Foundation
public import Store

/// What the HTTP API's event stream carries: every change of the message log (``LogChange``) and
/// the journal's contact and modem events (``JournalEvent``: `contact.desync`, `contact.resynced`,
/// `modem.down`, `modem.up`), merged by time under one cursor.
///
/// The cursor is one number, ``Position/id``: `(log + 1) × 10⁹ + journal`, where `log` is the
/// last log change and `journal` the last journal event handed out. Each event moves one of the
/// two forward and neither back, so ids increase strictly, and resuming after any id loses and
/// repeats nothing of either source. An id below 10⁹ is a log sequence from a version whose stream
/// held log changes alone: the log resumes after it, the journal at its end.
public enum EventStream {
    /// The journal's events the stream carries; message events are the log's changes already.
    public static let journalTypes: Set<EventType> = [.contactDesync, .contactResynced, .modemDown, .modemUp]

    /// Where a reader of the stream stands in both sources.
    public struct Position: Sendable, Hashable {
        /// The last log change handed out (`message_events`' sequence).
        public var log: Int64
        /// The last journal event handed out.
        public var journal: Int64

        static let scale: Int64 = 1_000_000_000

        /// The stream's id for this position (an SSE `id:`).
        public var id: Int64 { (log + 1) * Self.scale + journal }

        public init(log: Int64, journal: Int64) {
            self.log = log
            self.journal = journal
        }

        /// The position an id of ``id`` (10⁹ or above) stands for.
        init(id: Int64) {
            self.init(log: id / Self.scale - 1, journal: id % Self.scale)
        }
    }

    /// One event of the stream with the position just after it.
    public struct Event: Sendable {
        public enum Item: Sendable {
            case log(LogChange)
            case journal(JournalEvent)
        }

        public var item: Item
        public var position: Position
        public var id: Int64 { position.id }
    }

    /// The position an id stands for: 0 is the start of both sources; an id from before the
    /// journal was merged in (below 10⁹) resumes the log after it and the journal at its end.
    ///
    /// An id beyond what this store's log or journal ever handed out is refused rather than
    /// resumed after, which would skip every event up to it. The high-water marks, not the
    /// newest rows, are the bound, so a cursor stays good after `log prune`.
    ///
    /// - Throws: ``CursorError/eventAhead(_:)``; ``Store/StoreError`` when the store
    ///   cannot be read.
    public static func position(after id: Int64, store: UnlockedStore) throws -> Position {
        let position: Position =
            switch id {
            case ..<1: Position(log: 0, journal: 0)
            case ..<Position.scale: Position(log: id, journal: try EventJournal.latest(store: store))
            default: Position(id: id)
            }
        let ahead = try store.read { reader in
            let (log, journal) = (try reader.logSequenceHighWater(), try reader.eventIDHighWater())
            return position.log > log || position.journal > journal
        }
        if ahead { throw CursorError.eventAhead(id) }
        return position
    }

    /// The position of the newest event (following from it gives only new events).
    public static func latest(store: UnlockedStore) throws -> Position {
        try store.read { reader in Position(log: try reader.latestLogSequence(), journal: try reader.latestEventID()) }
    }

    /// The events after `position`, oldest first, going on with each as it is committed until
    /// the task is cancelled (or, not `following`, ending once caught up).
    public static func since(_ position: Position, following: Bool = true, store: UnlockedStore) -> StoreFeed<Event> {
        let types = Set(journalTypes.map(\.rawValue))
        return StoreFeed(store: store, cursor: position.id, following: following) { reader, after in
            let start = Position(id: after)
            let changes = try reader.logEvents(after: start.log, limit: StoreFeed<Event>.batchSize).map(LogChange.init)
            let journal = try reader.events(after: start.journal, types: types, limit: StoreFeed<Event>.batchSize)
                .map(JournalEvent.init)
            return merge(changes, journal, from: start)
        } position: {
            $0.id
        }
    }

    /// The two sources' events, each in its own order, interleaved by time: whichever source's
    /// next event is older goes first (the log on a tie).
    static func merge(_ changes: [LogChange], _ journal: [JournalEvent], from start: Position) -> [Event] {
        var current = start
        var events: [Event] = []
        var (left, right) = (changes[...], journal[...])
        while let item = pick(&left, &right) {
            switch item {
            case .log(let change): current.log = change.sequence
            case .journal(let event): current.journal = event.id
            }
            events.append(Event(item: item, position: current))
        }
        return events
    }

    private static func pick(_ changes: inout ArraySlice<LogChange>, _ journal: inout ArraySlice<JournalEvent>) -> Event.Item? {
        switch (changes.first, journal.first) {
        case (let change?, let event?) where event.time < change.time: .journal(journal.removeFirst())
        case (_?, _): .log(changes.removeFirst())
        case (nil, _?): .journal(journal.removeFirst())
        case (nil, nil): nil
        }
    }
}
