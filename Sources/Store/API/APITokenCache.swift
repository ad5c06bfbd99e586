import Foundation
import GRDB
import Synchronization

/// The API tokens as last read, kept until anything in the database changes: checking a
/// request's token then costs one `PRAGMA data_version` on a connection of its own instead of a
/// read transaction (the daemon checks one per request).
///
/// SQLite changes a connection's data version whenever another connection commits: this
/// process's writer, or another process's (`smsgw api token revoke`, `create`, a new expiry). The
/// version is read before the tokens, so the tokens kept are never older than the version they
/// are kept under, and a revocation is seen by the next check, as with a read. Every other commit
/// (each batch of sends) also makes the next check read the tokens again, which is rare beside
/// the checks. When the version cannot be read the tokens are read every time.
final class APITokenCache: Sendable {
    private let path: String
    private let state = Mutex(State())

    private struct State {
        /// Opened on first use: only the daemon checks tokens, and a command has no use for it.
        var watcher: DatabaseQueue?
        var version: Int64?
        var tokens: [APITokenRecord] = []
    }

    init(path: String) {
        self.path = path
    }

    /// The tokens: those kept when nothing was committed since they were read, else `read()`'s.
    func tokens(reading read: () throws -> [APITokenRecord]) throws -> [APITokenRecord] {
        guard let version = try? currentVersion() else { return try read() }
        if let kept = state.withLock({ $0.version == version ? $0.tokens : nil }) { return kept }
        let tokens = try read()
        state.withLock { state in
            state.version = version
            state.tokens = tokens
        }
        return tokens
    }

    private func currentVersion() throws -> Int64? {
        let watcher = try state.withLock { state in
            if let watcher = state.watcher { return watcher }
            var configuration = Configuration()
            configuration.readonly = true
            configuration.label = "smsgw.store.api-tokens"
            let watcher = try DatabaseQueue(path: path, configuration: configuration)
            state.watcher = watcher
            return watcher
        }
        return try watcher.inDatabase { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) }
    }
}

extension UnlockedStore {
    /// Every API token, by name, as ``StoreReader/apiTokens()`` reads them; kept between calls
    /// until the database changes (``APITokenCache``), for a check on every request.
    public func currentAPITokens() throws -> [APITokenRecord] {
        try apiTokenCache.tokens { try read { try $0.apiTokens() } }
    }
}
