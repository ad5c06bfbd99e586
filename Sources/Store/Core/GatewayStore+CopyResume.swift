import Foundation
import Logging

extension GatewayStore {
    /// Makes the part of a resumed copy that the earlier runs moved equal to the source as it is
    /// now, before the copy goes on: the source may have changed between the runs (the unlock's
    /// own bookkeeping always changes the account; a command run in between changes contacts and
    /// messages), and a key state copied before such a change would bring back an older ratchet
    /// position in the target: pad reuse.
    ///
    /// First, children before parents, the target's rows the source no longer has are deleted,
    /// and tables copied by offset (no one-column key), with the tables that refer to them, are
    /// emptied to be copied again. Then ``refreshCopied(_:at:into:batchSize:)`` updates and adds,
    /// parents first, table by table as the copy reaches it.
    ///
    /// - Returns: Where each table's copy continues.
    func pruneCopied(_ plan: StoreCopier.Plan, at positions: [String: StoreCopier.Position], into target: GatewayStore, batchSize: Int)
        throws -> [String: StoreCopier.Position]
    {
        var positions = positions
        var restarted: Set<String> = []
        for table in plan.tables {
            let copiedByOffset = (positions[table.name]?.copied ?? 0) > 0 && positions[table.name]?.lastKey == nil
            if copiedByOffset || !(plan.parents[table.name] ?? []).isDisjoint(with: restarted) { restarted.insert(table.name) }
        }
        var deleted = 0
        for table in plan.tables.reversed() {
            if restarted.contains(table.name) {
                try target.writeTransaction { db in try StoreCopier.restart(table, db) }
                positions[table.name] = StoreCopier.Position()
                continue
            }
            guard let last = positions[table.name]?.lastKey else { continue }
            var kept: Set<StoreValue> = []
            var lower: StoreValue?
            while true {
                let keys = try readTransaction { db in try StoreCopier.keys(of: table, through: last, after: lower, limit: batchSize, db) }
                guard let next = keys.last else { break }
                kept.formUnion(keys)
                lower = next
            }
            lower = nil
            while true {
                let keys = try target.readTransaction { db in try StoreCopier.keys(of: table, after: lower, limit: batchSize, db) }
                guard let next = keys.last else { break }
                let gone = keys.filter { !kept.contains($0) }
                try target.writeTransaction { db in try StoreCopier.delete(keys: gone, from: table, db) }
                deleted += gone.count
                lower = next
            }
        }
        if deleted > 0 || !restarted.isEmpty {
            logger.info(
                "A resumed copy deleted the rows the source no longer has and starts tables copied by offset again.",
                metadata: ["rows_deleted": "\(deleted)", "tables_restarted": "\(restarted.sorted().joined(separator: ","))"])
        }
        return positions
    }

    /// Makes the rows of `table` that an earlier run copied (up to `position`'s last key) equal
    /// to the source's, adding those the source gained in that range since.
    ///
    /// - Returns: Where the copy of `table` continues: after the same key, with the rows of the
    ///   range counted as the source holds them now.
    func refreshCopied(_ table: StoreCopier.Table, at position: StoreCopier.Position, into target: GatewayStore, batchSize: Int) throws
        -> StoreCopier.Position
    {
        guard let last = position.lastKey else { return position }
        var lower: StoreValue?
        var copied = 0
        var changed = (updated: 0, inserted: 0)
        while let keyIndex = table.keyIndex {
            let rows = try readTransaction { db in try StoreCopier.rows(of: table, through: last, after: lower, limit: batchSize, db) }
            guard let next = rows.last?.values[keyIndex] else { break }
            let done = try target.writeTransaction { db in try StoreCopier.overwrite(rows, in: table, db) }
            changed = (changed.updated + done.updated, changed.inserted + done.inserted)
            copied += rows.count
            lower = next
        }
        if changed.updated + changed.inserted > 0 {
            logger.info(
                "A resumed copy updated rows the source changed since the copy began.",
                metadata: ["table": "\(table.name)", "rows_updated": "\(changed.updated)", "rows_added": "\(changed.inserted)"])
        }
        return StoreCopier.Position(copied: copied, lastKey: last)
    }
}
