public import Foundation
public import Store

/// The event journal: what happened (messages received, sent, delivered, failed; contacts out of
/// sync and resynced; modems down and up), each event written in the store transaction of its
/// cause, read in order by webhooks and the event stream.
///
/// Most events are written by the store's triggers (migration `v6-event-journal`); the rules that
/// decide the others live here.
public enum EventJournal {
    /// The events after `id`, oldest first, as an `AsyncSequence` that, `following`, goes on with
    /// each event as it is committed (by this process or another) until the task is cancelled.
    ///
    /// - Parameters:
    ///   - id: The last event already handled (0 for the whole journal, ``latest(store:)`` for new ones).
    ///   - types: Only events of these types, or nil for all.
    ///   - following: Whether to wait for new events once caught up.
    public static func since(_ id: Int64, types: Set<EventType>? = nil, following: Bool = true, store: UnlockedStore) -> EventFeed {
        let names = types.map { Set($0.map(\.rawValue)) }
        return EventFeed(store: store, cursor: id, following: following) { reader, after in
            try reader.events(after: after, types: names, limit: EventFeed.batchSize).map(JournalEvent.init)
        } position: {
            $0.id
        }
    }

    /// The newest event's id (0 for an empty journal): following from it gives only new events.
    public static func latest(store: UnlockedStore) throws -> Int64 {
        try store.read { try $0.latestEventID() }
    }

    /// Records `contact.desync` when a verification failure has just made the contact's run of
    /// failures reach ``SyncPolicy/failureThreshold``: once per run, in the caller's transaction.
    ///
    /// - Parameter failures: The contact's consecutive failures, this one counted.
    public static func noteVerificationFailure(of contact: Contact, failures: Int, in tx: StoreTransaction, now: Date) throws {
        guard failures == SyncPolicy.failureThreshold else { return }
        let payload: JSONValue = .object([
            "contact": .string(contact.name),
            "sync": .object([
                "state": .string(GatewayStatus.SyncState.State.failing.rawValue), "consecutiveFailures": .number(Double(failures)),
            ]),
        ])
        try tx.appendEvent(type: EventType.contactDesync.rawValue, time: now, contact: contact, payload: try OperationsJSON.string(payload))
    }
}

/// The journal's events as they are committed (``EventJournal/since(_:types:following:store:)``).
public typealias EventFeed = StoreFeed<JournalEvent>
