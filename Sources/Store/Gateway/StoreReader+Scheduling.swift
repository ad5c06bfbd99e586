public import Foundation
import GRDB

extension StoreReader {
    /// Whether a queued outbox row is due at `now`: a cheap read the sender polls before claiming.
    public func hasDueOutbox(now: Date = Date()) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM outbox WHERE state = 'queued' AND next_attempt_at <= ?)",
            arguments: [now.timeIntervalSince1970]
        ) ?? false
    }

    /// The contact's newest outbox row of `kind`, if any (the resync coordinator's retry clock).
    public func latestOutbox(kind: OutboxKind, for contact: Contact) throws -> OutboxItem? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM outbox WHERE contact_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
            arguments: [contact.id.storeString, kind.rawValue]
        ).map(OutboxItem.init(row:))
    }

    /// How many of the contact's outbox rows are in each state.
    public func outboxCounts(for contact: Contact) throws -> [OutboxState: Int] {
        var counts: [OutboxState: Int] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT state, COUNT(*) AS n FROM outbox WHERE contact_id = ? GROUP BY state",
            arguments: [contact.id.storeString]
        ) {
            if let state = OutboxState(rawValue: row["state"]) { counts[state] = row["n"] }
        }
        return counts
    }
}
