import Foundation
public import Store

/// What ``StoreMigration/copy(from:to:progress:)`` did: every table's rows
/// on both sides and what the decrypt check opened.
public struct StoreMigrationReport: Sendable, Hashable, Codable {
    /// The source's backend and location (a path or a URL without password).
    public var source: String
    /// The target's backend and location.
    public var target: String
    /// Every table of the schema, parents first.
    public var tables: [CopiedTable]
    /// What the copy opened under the source's data key.
    public var decryption: DecryptionCheck
}

/// `smsgw store migrate`: a store copied into an empty database on the other backend, then
/// verified.
///
/// The source comes unlocked (``Login``: passphrase, lockout, second factor), so a wrong
/// passphrase or code is refused before the target is opened, let alone written. The copy
/// itself is ``GatewayStore/copy(to:batchSize:progress:)``: every table of the schema, rows and
/// ids as they are, blobs byte for byte, resumable. Around it this operation holds the daemon
/// lock of both data directories (a daemon starting meanwhile is refused; one already running
/// refuses the copy), then checks the result: every table's rows equal (its count and a digest
/// of all its rows), and with the keys of the unlock every ratchet state and a sample of texts
/// and vault items of the copy opened. From the copy's start until the move is recorded the
/// source's writes wait (``GatewayStore/holdingWrites(_:)``): a key state stepped there after
/// the copier read it would be unknown to the target, which would use that pad again. Last,
/// with the source's nodes checked again (one may have started during the copy), the copy is
/// completed and the source recorded as moved (``GatewayStore/completeMove(to:holding:at:checking:)``):
/// a command or node that opens it later is refused instead of queueing a message no daemon
/// sends. A refusal on the way leaves the source as it was and the target recognisably incomplete: a rerun resumes it. A record that
/// failed after the target was complete is written by a rerun, which finds the target equal
/// to the source (``copyRows(of:to:progress:)``).
public enum StoreMigration {
    /// Copies the store `source` unlocked into `target` and verifies the copy.
    ///
    /// - Parameters:
    ///   - source: The store to copy, unlocked by ``Login`` before the target was opened.
    ///   - progress: Called after each batch of rows; throwing stops the copy, which a rerun resumes.
    /// - Throws: ``MaintenanceError/daemonRunning(directory:pid:)``,
    ///   ``MaintenanceError/nodesRunning(names:)``, ``MaintenanceError/sameStore(location:)``,
    ///   ``MaintenanceError/copyDiffers(tables:)``;
    ///   the store's ``StoreError/alreadyExists(_:)`` for a target that holds rows, its errors
    ///   for the copy and the check.
    public static func copy(
        from source: UnlockedStore, to target: GatewayStore, progress: (StoreCopyProgress) throws -> Void
    ) throws -> StoreMigrationReport {
        try copy(from: source, opening: { target }, progress: progress)
    }

    /// Copies the store `source` unlocked into the store `openTarget` opens, once the source's
    /// daemon lock is held: a running daemon is reported before the target is reached (a server
    /// that refuses the connection, or its TLS, would otherwise be the first thing said).
    ///
    /// - Throws: As ``copy(from:to:progress:)``, and what `openTarget` throws.
    public static func copy(
        from source: UnlockedStore, opening openTarget: () throws -> GatewayStore, progress: (StoreCopyProgress) throws -> Void
    ) throws -> StoreMigrationReport {
        let gateway = source.gateway
        var locks = [try lockDaemon(gateway.directory)]
        defer { for lock in locks { lock.release() } }
        try refuseRunningNodes(of: source, directory: gateway.directory, now: Date())
        let target = try openTarget()
        guard describe(gateway) != describe(target) else { throw MaintenanceError.sameStore(location: target.location) }
        if target.directory != gateway.directory { locks.append(try lockDaemon(target.directory)) }
        // Every write of the source waits from here until the move is recorded: a step of a key
        // state the copier had read already would be one the target does not know.
        return try gateway.holdingWrites { hold in
            try copyRows(of: gateway, to: target, progress: progress)
            try refuseRunningNodes(of: source, directory: gateway.directory, now: Date())
            let tables = try gateway.compareCopy(with: target)
            let differing = tables.filter { !$0.matches }.map(\.table)
            guard differing.isEmpty else { throw MaintenanceError.copyDiffers(tables: differing) }
            let report = StoreMigrationReport(
                source: describe(gateway), target: describe(target), tables: tables,
                decryption: try source.checkDecryption(of: target))
            // Verified: the copy counts as complete, and the old store is refused, only if still no
            // node is up on it (one may have started since the check above).
            try gateway.completeMove(to: target, holding: hold) { nodes in
                try refuseRunningNodes(nodes, directory: gateway.directory, now: Date())
            }
            return report
        }
    }

    /// Copies the rows of `source` into `target`, or finds them copied: a target that holds rows
    /// and no copy under way, but the source's rows in every table (compared as at the end of a
    /// copy), is the complete copy of a run whose last step could not record the move (the
    /// connection lost at that moment); the run then goes on to check and record it. The source's
    /// writes are held, so it cannot change meanwhile; a target used since differs, and is
    /// refused as not empty.
    ///
    /// - Throws: The store's ``StoreError/alreadyExists(_:)`` for a target that holds other rows;
    ///   its errors for the copy and the comparison.
    static func copyRows(
        of source: GatewayStore, to target: GatewayStore, progress: (StoreCopyProgress) throws -> Void
    ) throws {
        do {
            try source.copyRows(to: target, progress: progress)
        } catch StoreError.alreadyExists(let sentence) {
            guard try source.compareCopy(with: target).allSatisfy(\.matches) else { throw StoreError.alreadyExists(sentence) }
        }
    }

    /// Refuses a copy while a node other than this data directory's (whose daemon lock the copy
    /// holds, so any run recorded here has ended) is up on the store.
    ///
    /// - Throws: ``MaintenanceError/nodesRunning(names:)``.
    static func refuseRunningNodes(of store: UnlockedStore, directory: URL, now: Date) throws {
        try refuseRunningNodes(try store.read { try $0.nodes() }, directory: directory, now: now)
    }

    /// Refuses a copy while a node of `nodes` other than this data directory's is up.
    ///
    /// - Throws: ``MaintenanceError/nodesRunning(names:)``.
    static func refuseRunningNodes(_ nodes: [NodeRecord], directory: URL, now: Date) throws {
        let here = GatewayStatus.EndedRuns(place: Daemon.place(of: directory), holder: nil)
        let running = nodes.filter { $0.liveness(at: now) == .up && !here.contain($0) }
        guard running.isEmpty else { throw MaintenanceError.nodesRunning(names: running.map(\.name).sorted()) }
    }

    /// "SQLite /path/smsgw.sqlite" or "postgresql://user@host:port/db".
    static func describe(_ store: GatewayStore) -> String { store.named }

    /// The daemon lock of `directory`, held for the copy.
    private static func lockDaemon(_ directory: URL) throws -> DaemonLock {
        guard let lock = try DaemonLock.acquire(directory: directory) else {
            throw MaintenanceError.daemonRunning(directory: directory.path, pid: DaemonLock.probe(directory: directory) ?? 0)
        }
        return lock
    }
}
