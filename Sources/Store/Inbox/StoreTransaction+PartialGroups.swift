public import Foundation

/// A concatenated SMS whose parts wait on a modem for the rest: who sent it, its reference and
/// how many parts its header announces.
public struct PartialGroupKey: Sendable, Hashable {
    public var sender: String
    public var reference: Int
    public var total: Int

    public init(sender: String, reference: Int, total: Int) {
        self.sender = sender
        self.reference = reference
        self.total = total
    }
}

extension StoreTransaction {
    /// Records the groups of parts waiting on `modem` now, and returns when each was first seen.
    ///
    /// A group seen for the first time gets `now`; a group no longer waiting (completed, or
    /// logged as partial and deleted) is forgotten. So how long parts have waited survives a
    /// restart of the daemon, while the SIM still holds them.
    public func notePartialGroups(_ groups: Set<PartialGroupKey>, modem: String, now: Date = Date()) throws -> [PartialGroupKey: Date] {
        var firstSeen: [PartialGroupKey: Date] = [:]
        let rows = try db.rows(sql: "SELECT sender, reference, total, first_seen FROM partial_groups WHERE modem = ?", arguments: [modem])
        for row in rows {
            let key = PartialGroupKey(sender: row["sender"], reference: row["reference"], total: row["total"])
            if groups.contains(key) {
                firstSeen[key] = Date(timeIntervalSince1970: row["first_seen"])
            } else {
                try db.execute(
                    sql: "DELETE FROM partial_groups WHERE modem = ? AND sender = ? AND reference = ? AND total = ?",
                    arguments: [modem, key.sender, key.reference, key.total])
            }
        }
        for key in groups where firstSeen[key] == nil {
            try db.execute(
                sql: "INSERT INTO partial_groups (modem, sender, reference, total, first_seen) VALUES (?, ?, ?, ?, ?)",
                arguments: [modem, key.sender, key.reference, key.total, now.timeIntervalSince1970])
            firstSeen[key] = now
        }
        return firstSeen
    }
}
