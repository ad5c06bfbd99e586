import Foundation
import Logging

/// How far a copy of a store has got: `copied` of `total` rows of `table`.
public struct StoreCopyProgress: Sendable, Hashable {
    public let table: String
    public let copied: Int
    public let total: Int
}

/// One table after a copy: its rows in the source and in the target, and whether they are the
/// same rows, which a complete copy makes equal.
public struct CopiedTable: Sendable, Hashable, Codable {
    public let table: String
    public let sourceRows: Int
    public let targetRows: Int
    /// Whether the target holds the source's rows, value for value (compared by digest).
    public let contentsMatch: Bool

    public init(table: String, sourceRows: Int, targetRows: Int, contentsMatch: Bool) {
        self.table = table
        self.sourceRows = sourceRows
        self.targetRows = targetRows
        self.contentsMatch = contentsMatch
    }

    /// Whether the target holds as many rows as the source, and the same ones.
    public var matches: Bool { sourceRows == targetRows && contentsMatch }
}

extension GatewayStore {
    /// The rows a copy moves in one transaction of the target.
    public static let copyBatchSize = 500

    /// Copies every table of this store into `target`, an empty store at the same migration,
    /// row for row: ids kept, blobs byte for byte (still sealed under the same data key).
    ///
    /// The tables come from the schema (``StoreCatalog``), parents before the tables whose
    /// foreign keys refer to them. Each batch of rows commits in its own transaction of the
    /// target with the count copied so far in `store_copy_progress`, so a copy cut short (a
    /// crash, Ctrl-C, a lost connection) continues where it stopped when run again and never
    /// copies a row twice; the rows copied before are first brought up to date with the source,
    /// which may have changed between the runs (``pruneCopied(_:at:into:batchSize:)``). The target's triggers stay off while rows arrive (the rows they
    /// would write are copied themselves); the last transaction turns them back on, moves
    /// PostgreSQL's identity sequences past the copied ids and drops the progress table.
    ///
    /// The source must not change meanwhile: the caller holds its daemon lock.
    ///
    /// - Parameters:
    ///   - progress: Called after each batch; throwing from it stops the copy (resumable).
    /// - Returns: Every table's rows in the source and the target, by name, and whether they are
    ///   the same rows.
    /// - Throws: ``StoreError/alreadyExists(_:)`` when the target holds rows and no copy into
    ///   it was begun; ``StoreError/configuration(_:)`` when the two are at different
    ///   migrations or have different tables; the backends' errors.
    public func copy(
        to target: GatewayStore, batchSize: Int = copyBatchSize, progress: (StoreCopyProgress) throws -> Void = { _ in }
    ) throws -> [CopiedTable] {
        try copyRows(to: target, batchSize: batchSize, progress: progress)
        let tables = try compareCopy(with: target, batchSize: batchSize)
        try finishCopy(to: target)
        return tables
    }

    /// The rows of ``copy(to:batchSize:progress:)``, without its last step: the target keeps its
    /// record of the copy under way (it is recognisably incomplete, and a copy run again resumes
    /// it) until ``finishCopy(to:)``.
    ///
    /// - Throws: As ``copy(to:batchSize:progress:)``.
    public func copyRows(
        to target: GatewayStore, batchSize: Int = copyBatchSize, progress: (StoreCopyProgress) throws -> Void = { _ in }
    ) throws {
        let plan = try StoreError.wrapping { try copyPlan(to: target) }
        let begun = try StoreError.wrapping { try target.writeTransaction { db in try StoreCopier.begin(plan, db) } }
        let resumed = try StoreError.wrapping {
            begun.isEmpty ? begun : try pruneCopied(plan, at: begun, into: target, batchSize: batchSize)
        }
        for table in plan.tables {
            var position = resumed[table.name] ?? StoreCopier.Position()
            if position.copied > 0 {
                position = try StoreError.wrapping { try refreshCopied(table, at: position, into: target, batchSize: batchSize) }
            }
            let total = try StoreError.wrapping { try readTransaction { db in try StoreCopier.count(table.name, db) } }
            while position.copied < total {
                let rows = try StoreError.wrapping {
                    try readTransaction { db in try StoreCopier.rows(of: table, after: position, limit: batchSize, db) }
                }
                guard !rows.isEmpty else { break }
                let next = table.position(after: rows, from: position)
                try StoreError.wrapping {
                    try target.writeTransaction { db in try StoreCopier.insert(rows, into: table, reaching: next, db) }
                }
                position = next
                try progress(StoreCopyProgress(table: table.name, copied: position.copied, total: total))
            }
        }
    }

    /// Every table's rows in this store and in `target`, and whether they are the same rows.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when the two have different tables; the
    ///   backends' errors.
    public func compareCopy(with target: GatewayStore, batchSize: Int = copyBatchSize) throws -> [CopiedTable] {
        let plan = try StoreError.wrapping { try copyPlan(to: target) }
        return try plan.tables.map { table in
            try StoreError.wrapping {
                CopiedTable(
                    table: table.name,
                    sourceRows: try readTransaction { db in try StoreCopier.count(table.name, db) },
                    targetRows: try target.readTransaction { db in try StoreCopier.count(table.name, db) },
                    contentsMatch: try readTransaction { db in try StoreCopier.digest(of: table, batchSize: batchSize, db) }
                        == target.readTransaction { db in try StoreCopier.digest(of: table, batchSize: batchSize, db) })
            }
        }
    }

    /// The last step of a copy into `target`, after which it counts as complete: its triggers
    /// back on, PostgreSQL's identity sequences past the copied ids, its record of the copy gone
    /// (a copy run again then refuses it as not empty). Does nothing when no copy is under way.
    ///
    /// - Throws: The backends' errors.
    public func finishCopy(to target: GatewayStore) throws {
        // The target's own tables: ``completeMove(to:at:checking:)`` calls this with a connection
        // of this store held, and takes no second one.
        try StoreError.wrapping { try target.writeTransaction { db in try StoreCopier.finish(tables: StoreCatalog.tables(db), db) } }
        logger.info("Copied the store.", metadata: [StoreLog.backend: "\(target.backendName)"])
    }

    /// The tables to copy, in dependency order, with the columns both sides share.
    private func copyPlan(to target: GatewayStore) throws -> StoreCopier.Plan {
        guard try appliedMigrations() == target.appliedMigrations() else {
            throw StoreError.configuration(
                "The source and the target are at different migrations; open both with this smsgw first so that both are current.")
        }
        let source = try readTransaction(StoreCopier.Schema.init)
        let destination = try target.readTransaction(StoreCopier.Schema.init)
        guard Set(source.columns.keys) == Set(destination.columns.keys) else {
            let differing = Set(source.columns.keys).symmetricDifference(destination.columns.keys).sorted()
            throw StoreError.configuration(
                "The source and the target differ in the tables \(differing.joined(separator: ", ")); both must be stores of this smsgw.")
        }
        let order = try StoreCatalog.dependencyOrder(source.columns.keys.sorted(), parents: source.parents)
        return try StoreCopier.Plan(
            tables: order.map { name in
                try StoreCopier.Table(
                    name: name, source: source.columns[name] ?? [], target: destination.columns[name] ?? [],
                    key: source.keys[name] ?? [])
            }, parents: source.parents)
    }
}
