public import Foundation
public import Logging
import PostgresNIO

/// Wake-ups between the nodes of one PostgreSQL store, on one connection per node.
///
/// One notice per write transaction that wrote a row, sent inside it, so the server delivers it
/// when it commits (never for a rolled back one), on `smsgw_commits`
/// (``GatewayStore/writeTransaction(_:_:)``; one that changed nothing notifies no one). Its
/// payload is the writing process's ``GatewayStore/commitOrigin``, followed by ` outbox` when the
/// transaction queued a row (``StoreTransaction/enqueueOutbox(_:to:messageID:kind:sealedAt:contactReadHere:now:)``)
/// or queued a dead node's claims again (``StoreTransaction/recordHeartbeat(_:now:)``).
///
/// - Each node rings its ``GatewayStore/commits`` on another process's notice, as its own
///   commits do: its event streams and its webhook dispatcher read the other nodes' messages and
///   events at once, and its ``APITokenCache`` reads the tokens again. A node skips its own
///   commits, which it rang already.
/// - On ` outbox`, its own included, the node whose modem is to send the row claims it at once,
///   not at its next fallback read.
///
/// A release before this one sent the outbox's wake-up as a second notice on `smsgw_outbox`;
/// the listener still hears that channel, so a node of that release, during an upgrade of the
/// nodes one at a time, wakes this one's outbox (the other way round, the older node claims at
/// its fallback read).
///
/// ``run(outbox:)`` holds one connection with `LISTEN` on both, over TCP with keepalive
/// (``PostgresKeepalive``): a server gone without a word ends it within about two minutes, and it
/// connects again, rather than waiting for notices that never come. A notice names no row,
/// contact or text. After each connection it rings ``GatewayStore/commits`` and calls `outbox` once:
/// anything committed while it was not listening is then read. While it is not connected,
/// ``CommitSignal/hearsOtherNodes`` is false and a reader falls back on its interval.
///
/// ```swift
/// if let notices = store.gateway.notices(logger: logger) {
///     await notices.run { wake.wake() }   // until the task is cancelled
/// }
/// ```
public final class StoreNotices: Sendable {
    /// The channel an earlier release sent queued outbox rows' wake-ups on, heard still.
    static let outboxChannel = "smsgw_outbox"
    /// The channel of every write transaction's commit.
    static let commitChannel = "smsgw_commits"
    /// What follows the origin in a commit notice's payload when the transaction queued outbox rows.
    static let outboxMark = " outbox"
    /// The longest wait between two attempts to connect again.
    static let longestRetry: Double = 30

    private let address: PostgresAddress
    private let commits: CommitSignal
    private let origin: String
    private let logger: Logger

    init(address: PostgresAddress, commits: CommitSignal, origin: String, logger: Logger) {
        self.address = address
        self.commits = commits
        self.origin = origin
        self.logger = logger
    }

    /// What went wrong, for the log: the server's message and SQLSTATE or why the connection
    /// failed or closed (``StoreError/server(_:cause:)``'s words; a TLS refusal's sentence), never
    /// postgres-nio's generic description, which says only that something did, nor a password.
    static func reason(_ error: any Error) -> String {
        switch error {
        case StoreError.server(let message, _): message
        default: "\(error)"
        }
    }

    /// Listens until the task is cancelled, calling `outbox` for each outbox notice and ringing
    /// the store's commits for each other process's commit, and both once after each connection.
    /// A failed or lost connection is logged and made again after 1 s, then 2, 4 … up to 30 s.
    public func run(outbox: @escaping @Sendable () -> Void) async {
        var delay = 1.0
        while !Task.isCancelled {
            do {
                let connection: PostgresConnection
                do {
                    connection = try await PostgresKeepalive.connect(
                        try address.connectionConfiguration(), id: 2, logger: logger)
                } catch {
                    throw StoreError(connectingFailed: error)
                }
                do {
                    try await listen(on: connection, outbox: outbox) { delay = 1 }
                } catch {
                    try? await connection.close()
                    throw StoreError(listeningFailed: error)
                }
                try? await connection.close()
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "Lost the store's notices from the other nodes; connecting again (the outbox, the event streams and the webhooks still read at their fallback intervals).",
                    metadata: [StoreLog.error: "\(Self.reason(error))", StoreLog.retrySeconds: "\(Int(delay))"])
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, Self.longestRetry)
        }
    }

    /// Listens on both channels of `connection` until it fails or the task is cancelled.
    private func listen(
        on connection: PostgresConnection, outbox: @escaping @Sendable () -> Void, connected: () -> Void
    ) async throws {
        let commits = commits
        let origin = origin
        try await connection.listen(on: Self.outboxChannel) { outboxNotices in
            try await connection.listen(on: Self.commitChannel) { commitNotices in
                connected()
                // Rung before it says it hears them: a token cache that saw it hear keeps what it
                // reads from now on, and anything committed before has been rung for.
                commits.ring()
                commits.hearing(true)
                defer { commits.hearing(false) }
                outbox()
                let failures = await withTaskGroup(of: (any Error)?.self) { group in
                    group.addTask { await Self.failure { for try await _ in outboxNotices { outbox() } } }
                    group.addTask {
                        await Self.failure {
                            for try await notice in commitNotices {
                                let heard = Self.commit(notice.payload)
                                if heard.origin != origin { commits.ring() }
                                if heard.outbox { outbox() }
                            }
                        }
                    }
                    // Either ends only when the connection does: stop listening on the other too.
                    var failures = [await group.next() ?? nil]
                    group.cancelAll()
                    for await failure in group { failures.append(failure) }
                    return failures.compactMap { $0 }
                }
                // Each channel's listener hears of a lost connection; the server's words, where
                // one of them has them, say why.
                if let failure = failures.first(where: { ($0 as? PSQLError).flatMap(PostgresServer.serverWords) != nil })
                    ?? failures.first
                {
                    throw failure
                }
            }
        }
    }

    /// Who committed, and whether the transaction queued outbox rows, from a commit notice's payload.
    static func commit(_ payload: String) -> (origin: Substring, outbox: Bool) {
        payload.hasSuffix(outboxMark) ? (payload.dropLast(outboxMark.count), true) : (payload[...], false)
    }

    /// The error `body` ended with, or nil when it ended without one (cancelled).
    private static func failure(_ body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }
}

extension GatewayStore {
    /// The wake-ups between nodes on this store: nil on SQLite, whose single node is woken
    /// through its status socket and whose commands' commits reach the daemon at its fallback read.
    public func notices(logger: Logger) -> StoreNotices? {
        switch backend {
        case .sqlite: nil
        case .postgresql(_, let address): StoreNotices(address: address, commits: commits, origin: commitOrigin, logger: logger)
        }
    }
}

extension GatewayStore {
    /// Hears the other processes' commits on PostgreSQL until the task returned is cancelled,
    /// logging to this store's logger: for a process that follows a stream and runs no daemon's
    /// ``StoreNotices`` (`log --follow`). Nil on SQLite.
    public func hearOtherNodes() -> Task<Void, Never>? {
        guard let notices = notices(logger: logger) else { return nil }
        return Task { await notices.run {} }
    }
}

extension StoreTransaction {
    /// Tells the other nodes to look at the outbox once this transaction commits (PostgreSQL
    /// only): its commit notice says so, no statement of its own.
    func notifyOutbox() {
        db.queuedOutbox = true
    }
}

extension StoreDatabase {
    /// Tells the other nodes that this transaction committed, once it does, if it wrote anything,
    /// and whether it queued outbox rows (PostgreSQL only).
    ///
    /// The server knows whether it did: a transaction is given a transaction id by its first
    /// write of a row (an insert, update or delete, its triggers' included, or a row lock), and
    /// never otherwise. One that read, or whose statements matched no row (a claim finding no
    /// due row, a token removal naming none), has none and wakes no node. Counting the rows each
    /// statement reported would miss the writes of `… RETURNING` statements read as rows and of
    /// triggers; the id misses nothing, and only a row locked and left unchanged notifies for
    /// nothing. `txid_current_if_assigned()` rather than its PostgreSQL 13 name, for 12.
    func notifyCommit(origin: String) throws {
        guard dialect == .postgresql else { return }
        _ = try rows(
            sql: "SELECT pg_notify(?, ?) WHERE txid_current_if_assigned() IS NOT NULL",
            arguments: [StoreNotices.commitChannel, origin + (queuedOutbox ? StoreNotices.outboxMark : "")])
    }
}
