import Foundation
import GRDB
import Synchronization

/// The API tokens as last read, kept until anything in the database changes, for the daemon's
/// check of each request.
///
/// On SQLite checking costs one `PRAGMA data_version` on a connection of its own instead of a read
/// transaction: SQLite changes a connection's data version whenever another connection commits:
/// this process's writer, or another process's (`smsgw api token revoke`, `create`, a new expiry).
/// The version is read before the tokens, so the tokens kept are never older than the version
/// they are kept under, and a revocation is seen by the next check, as with a read.
///
/// On PostgreSQL the version is the store's ``CommitSignal/count``, which this process's commits
/// and, while the node's listener is connected (``CommitSignal/hearsOtherNodes``), every other
/// node's commits move (``StoreNotices``): a revocation on another node is seen once its notice
/// arrives, as the server delivers it on commit. Without a listener (a command's process, or one
/// reconnecting) the tokens are read at every check, and kept tokens are read again after
/// ``longestKept`` in any case, in case a connection died without a word.
///
/// Every other commit (each batch of sends) also makes the next check read the tokens again,
/// which is rare beside the checks. When the version cannot be read the tokens are read every time.
final class APITokenCache: Sendable {
    /// The longest PostgreSQL's tokens are kept.
    static let longestKept: Duration = .seconds(1)

    private let gateway: GatewayStore
    private let longestKept: Duration
    private let state = Mutex(State())

    private enum Version: Equatable {
        case dataVersion(Int64)
        case commits(UInt64)
    }

    private struct State {
        /// Opened on first use: only the daemon checks tokens, and a command has no use for it.
        var watcher: DatabaseQueue?
        var version: Version?
        var readAt: ContinuousClock.Instant = .now
        var tokens: [APITokenRecord] = []
    }

    init(gateway: GatewayStore, longestKept: Duration = APITokenCache.longestKept) {
        self.gateway = gateway
        self.longestKept = longestKept
    }

    /// The tokens: those kept when nothing was committed since they were read, else `read()`'s.
    func tokens(reading read: () throws -> [APITokenRecord]) throws -> [APITokenRecord] {
        guard let version = try? currentVersion() else { return try read() }
        let now = ContinuousClock.now
        let kept = state.withLock { state in
            guard state.version == version else { return nil as [APITokenRecord]? }
            if case .commits = version, now - state.readAt >= longestKept { return nil }
            return state.tokens
        }
        if let kept { return kept }
        let tokens = try read()
        state.withLock { state in
            state.version = version
            state.readAt = now
            state.tokens = tokens
        }
        return tokens
    }

    /// The version the tokens are kept under; nil when they are to be read (PostgreSQL without
    /// a listener for the other nodes' commits).
    private func currentVersion() throws -> Version? {
        switch gateway.backend {
        case .postgresql:
            let commits = gateway.commits
            // The count first: a listener that connects meanwhile rings, which moves it on.
            let count = commits.count
            return commits.hearsOtherNodes ? .commits(count) : nil
        case .sqlite:
            let watcher = try state.withLock { state in
                if let watcher = state.watcher { return watcher }
                var configuration = Configuration()
                configuration.readonly = true
                configuration.label = "smsgw.store.api-tokens"
                let watcher = try DatabaseQueue(path: gateway.databaseURL.path, configuration: configuration)
                state.watcher = watcher
                return watcher
            }
            return .dataVersion(
                try watcher.inDatabase { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) } ?? 0)
        }
    }
}

extension UnlockedStore {
    /// Every API token, by name, as ``StoreReader/apiTokens()`` reads them; kept between calls
    /// until the database changes (``APITokenCache``), for a check on every request.
    public func currentAPITokens() throws -> [APITokenRecord] {
        try apiTokenCache.tokens { try read { try $0.apiTokens() } }
    }
}
