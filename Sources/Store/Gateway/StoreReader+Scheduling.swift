public import Foundation

extension StoreReader {
    /// Whether a queued outbox row is due at `now` for a modem of `node` whose ready peers are
    /// `othersReady` (see ``StoreTransaction/claimNextOutbox(modem:node:othersReady:now:)``): a
    /// cheap read before claiming.
    public func hasDueOutbox(othersReady: Set<String> = [], node: String? = nil, now: Date = Date()) throws -> Bool {
        let pins = Self.pinFilter(othersReady: othersReady, node: node, now: now)
        return try db.value(
            Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM outbox o WHERE o.state = 'queued' AND o.next_attempt_at <= ?\(pins.sql))",
            arguments: [now.timeIntervalSince1970] + pins.arguments
        ) ?? false
    }

    /// When the next queued outbox row that a modem of `node` whose ready peers are `othersReady`
    /// may claim falls due (its `next_attempt_at`, possibly in the past), or nil when none is
    /// queued: the sender sleeps until then instead of polling.
    public func nextOutboxAttempt(othersReady: Set<String> = [], node: String? = nil, now: Date = Date()) throws -> Date? {
        let pins = Self.pinFilter(othersReady: othersReady, node: node, now: now)
        return try db.value(
            Double.self, sql: "SELECT MIN(o.next_attempt_at) FROM outbox o WHERE o.state = 'queued'\(pins.sql)",
            arguments: pins.arguments
        ).map(Date.init(timeIntervalSince1970:))
    }

    /// The condition (on outbox alias `o`) that leaves out rows of contacts pinned to a modem that
    /// serves them now: one of `othersReady` (the node's own ready modems), or a ready modem of
    /// another node (not `node`) that is up at `now`. A contact pinned to a modem of a node that is
    /// down or stopped is any modem's until that node is back.
    static func pinFilter(othersReady: Set<String>, node: String?, now: Date) -> (sql: String, arguments: StoreArguments) {
        let names = othersReady.sorted()
        let local = names.isEmpty ? "" : "c.modem IN (\(Array(repeating: "?", count: names.count).joined(separator: ", "))) OR "
        return (
            """
             AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = o.contact_id AND c.modem IS NOT NULL AND (\(local)\
            EXISTS (SELECT 1 FROM modem_status ms WHERE ms.name = c.modem AND \(readyOnLiveNode))))
            """,
            StoreArguments(names) + [node ?? "", now.timeIntervalSince1970]
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
