public import Foundation

extension StoreReader {
    /// Whether a queued outbox row is due at `now` for a modem whose ready peers are
    /// `othersReady` (see ``StoreTransaction/claimNextOutbox(modem:othersReady:now:)``): a cheap
    /// read before claiming.
    public func hasDueOutbox(othersReady: Set<String> = [], now: Date = Date()) throws -> Bool {
        let pins = Self.pinFilter(othersReady: othersReady)
        return try db.value(
            Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM outbox o WHERE o.state = 'queued' AND o.next_attempt_at <= ?\(pins.sql))",
            arguments: [now.timeIntervalSince1970] + pins.arguments
        ) ?? false
    }

    /// When the next queued outbox row that a modem whose ready peers are `othersReady` may claim
    /// falls due (its `next_attempt_at`, possibly in the past), or nil when none is queued: the
    /// sender sleeps until then instead of polling.
    public func nextOutboxAttempt(othersReady: Set<String> = []) throws -> Date? {
        let pins = Self.pinFilter(othersReady: othersReady)
        return try db.value(
            Double.self, sql: "SELECT MIN(o.next_attempt_at) FROM outbox o WHERE o.state = 'queued'\(pins.sql)",
            arguments: pins.arguments
        ).map(Date.init(timeIntervalSince1970:))
    }

    /// The condition (on outbox alias `o`) that leaves out rows of contacts pinned to one of
    /// `othersReady`; empty when there are none.
    static func pinFilter(othersReady: Set<String>) -> (sql: String, arguments: StoreArguments) {
        guard !othersReady.isEmpty else { return ("", []) }
        let names = othersReady.sorted()
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return (
            " AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = o.contact_id AND c.modem IN (\(marks)))",
            StoreArguments(names)
        )
    }

    /// The contact's newest outbox row of `kind`, if any (the resync coordinator's retry clock).
    public func latestOutbox(kind: OutboxKind, for contact: Contact) throws -> OutboxItem? {
        try db.row(
            sql: "SELECT * FROM outbox WHERE contact_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
            arguments: [contact.id.storeString, kind.rawValue]
        ).map(OutboxItem.init(row:))
    }

    /// How many of the contact's outbox rows are in each state.
    public func outboxCounts(for contact: Contact) throws -> [OutboxState: Int] {
        var counts: [OutboxState: Int] = [:]
        for row in try db.rows(
            sql: "SELECT state, COUNT(*) AS n FROM outbox WHERE contact_id = ? GROUP BY state",
            arguments: [contact.id.storeString]
        ) {
            if let state = OutboxState(rawValue: row["state"]) { counts[state] = row["n"] }
        }
        return counts
    }
}
