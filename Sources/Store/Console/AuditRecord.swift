public import Foundation

/// One line of the audit list: who did what to what, when, from where, and how it ended.
///
/// The store keeps what it is given; the operations layer decides the actions and never puts a
/// secret or a message text in them.
public struct AuditRecord: Sendable, Hashable {
    public var id: Int64
    public var time: Date
    /// `operator`, `token` or `command-line`.
    public var actorKind: String
    /// The operator's or token's name; nil for the command line.
    public var actorName: String?
    public var action: String
    public var target: String?
    /// `done`, `refused` or `failed`.
    public var outcome: String
    /// The client's address, for requests over the network.
    public var address: String?

    public init(
        id: Int64 = 0, time: Date, actorKind: String, actorName: String?, action: String, target: String?, outcome: String,
        address: String?
    ) {
        self.id = id
        self.time = time
        self.actorKind = actorKind
        self.actorName = actorName
        self.action = action
        self.target = target
        self.outcome = outcome
        self.address = address
    }
}

extension StoreReader {
    /// The newest audit records first, at most `limit`, older than the record `before` when given.
    public func auditRecords(limit: Int, before: Int64? = nil) throws -> [AuditRecord] {
        try db.rows(
            sql: "SELECT * FROM audit_events WHERE id < ? ORDER BY id DESC LIMIT ?", arguments: [before ?? Int64.max, limit]
        ).map { row in
            AuditRecord(
                id: row["id"], time: Date(timeIntervalSince1970: row["time"]), actorKind: row["actor_kind"], actorName: row["actor_name"],
                action: row["action"], target: row["target"], outcome: row["outcome"], address: row["address"])
        }
    }
}

extension StoreReader {
    /// How many of the newest `among` lines are refusals of `actorKind` `actorName` after `since`:
    /// a bounded look, however long the list. A nil `actorName` (the command line's) matches the
    /// lines stored without one.
    public func recentRefusals(actorKind: String, actorName: String?, since: Date, among: Int) throws -> Int {
        let row = try db.row(
            sql: """
                SELECT COUNT(*) AS n
                FROM (SELECT time, actor_kind, actor_name, outcome FROM audit_events ORDER BY id DESC LIMIT ?) AS recent
                WHERE outcome = 'refused' AND actor_kind = ? AND COALESCE(actor_name, '') = ? AND time > ?
                """,
            arguments: [among, actorKind, actorName ?? "", since.timeIntervalSince1970])
        return row?["n"] ?? 0
    }
}

extension StoreTransaction {
    /// Appends `record` (its id is assigned) and returns the id.
    @discardableResult
    public func appendAudit(_ record: AuditRecord) throws -> Int64 {
        try db.insert(
            sql: """
                INSERT INTO audit_events (time, actor_kind, actor_name, action, target, outcome, address)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
            arguments: [
                record.time.timeIntervalSince1970, record.actorKind, record.actorName, record.action, record.target, record.outcome,
                record.address,
            ])
    }
}
