public import Foundation
public import Store

/// What ``StoreMigration/copy(from:to:passphrase:code:now:progress:)`` did: every table's rows
/// on both sides and what the decrypt check opened.
public struct StoreMigrationReport: Sendable, Hashable, Codable {
    /// The source's backend and location (a path or a URL without password).
    public var source: String
    /// The target's backend and location.
    public var target: String
    /// Every table of the schema, parents first.
    public var tables: [CopiedTable]
    /// What the unlocked target opened under its data key.
    public var decryption: DecryptionCheck
}

/// `smsgw store migrate`: a store copied into an empty database on the other backend, then
/// verified.
///
/// The copy itself is ``GatewayStore/copy(to:batchSize:progress:)``: every table of the
/// schema, rows and ids as they are, blobs byte for byte, resumable. Around it this operation
/// holds the daemon lock of both data directories (a daemon starting meanwhile is refused; one
/// already running refuses the copy), then checks the result: every table's count equal, and
/// the target unlocked with the passphrase, every ratchet state and a sample of texts and vault
/// items opened.
public enum StoreMigration {
    /// Copies `source` into `target` and verifies the copy.
    ///
    /// - Parameters:
    ///   - passphrase: The account's passphrase, to unlock the target once copied.
    ///   - code: Asked only when the account has two-factor login on; the current code.
    ///   - progress: Called after each batch of rows; throwing stops the copy, which a rerun resumes.
    /// - Throws: ``AccountError/noAccount(directory:)`` when the source holds no store;
    ///   ``MaintenanceError/daemonRunning(directory:pid:)``,
    ///   ``MaintenanceError/sameStore(location:)``, ``MaintenanceError/countsDiffer(tables:)``;
    ///   the store's ``StoreError/alreadyExists(_:)`` for a target that holds rows, its errors
    ///   for the copy and the unlock.
    public static func copy(
        from source: GatewayStore, to target: GatewayStore, passphrase: String, code: () throws -> String?,
        now: @autoclosure () -> Date = Date(), progress: (StoreCopyProgress) throws -> Void
    ) throws -> StoreMigrationReport {
        guard describe(source) != describe(target) else { throw MaintenanceError.sameStore(location: target.location) }
        guard try source.accountExists else { throw AccountError.noAccount(directory: source.directory.path) }
        let locks = try [source.directory, target.directory].uniqued().map(lockDaemon)
        defer { for lock in locks { lock.release() } }
        let tables = try source.copy(to: target, progress: progress)
        let differing = tables.filter { !$0.matches }.map(\.table)
        guard differing.isEmpty else { throw MaintenanceError.countsDiffer(tables: differing) }
        let login = try Login.begin(target, now: now())
        let unlocked = try login.unlock(passphrase: passphrase, code: login.requiresCode ? try code() : nil, now: now())
        return StoreMigrationReport(
            source: describe(source), target: describe(target), tables: tables, decryption: try unlocked.checkDecryption())
    }

    /// "sqlite /path/smsgw.sqlite" or "postgresql postgresql://user@host:port/db".
    static func describe(_ store: GatewayStore) -> String { "\(store.backendName) \(store.location)" }

    /// The daemon lock of `directory`, held for the copy.
    private static func lockDaemon(_ directory: URL) throws -> DaemonLock {
        guard let lock = try DaemonLock.acquire(directory: directory) else {
            throw MaintenanceError.daemonRunning(directory: directory.path, pid: DaemonLock.probe(directory: directory) ?? 0)
        }
        return lock
    }
}

extension Array where Element == URL {
    /// The URLs once each, in their first order.
    fileprivate func uniqued() -> [URL] {
        reduce(into: []) { result, url in if !result.contains(url) { result.append(url) } }
    }
}
