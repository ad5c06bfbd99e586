public import Foundation
public import Logging
import PostgresNIO

/// Wake-ups between the nodes of one PostgreSQL store: a row queued through one node's host is
/// claimed at once by whichever node's modem is to send it, not at that node's next fallback read.
///
/// Each transaction that queues an outbox row (``StoreTransaction/enqueueOutbox(_:to:messageID:kind:now:)``)
/// or queues a dead node's claims again (``StoreTransaction/recordHeartbeat(_:now:)``) sends
/// `NOTIFY smsgw_outbox`, which the server delivers when it commits (never for a rolled back
/// one). ``run(_:)`` holds one connection of its own with `LISTEN smsgw_outbox`. A notice says
/// only "look at the outbox": no row, contact or text. A notice lost while a node reconnects
/// only delays the row until that node's fallback read (its health interval).
///
/// ```swift
/// if let notices = store.gateway.outboxNotices(logger: logger) {
///     await notices.run { wake.wake() }   // until the task is cancelled
/// }
/// ```
public final class OutboxNotices: Sendable {
    /// The channel every node notifies and listens on.
    static let channel = "smsgw_outbox"
    /// The longest wait between two attempts to connect again.
    static let longestRetry: Double = 30

    private let address: PostgresAddress
    private let logger: Logger

    init(address: PostgresAddress, logger: Logger) {
        self.address = address
        self.logger = logger
    }

    /// What went wrong, for the log: the server's message and SQLSTATE or why the connection
    /// failed or closed (``StoreError/server(_:busy:)``'s words; a TLS refusal's sentence), never
    /// postgres-nio's generic description, which says only that something did, nor a password.
    static func reason(_ error: any Error) -> String {
        switch error {
        case StoreError.server(let message, _): message
        default: "\(error)"
        }
    }

    /// Listens until the task is cancelled, calling `notice` for each notification and once after
    /// each connection (rows may have been queued while it was not listening). A failed or lost
    /// connection is logged and made again after 1 s, then 2, 4 … up to 30 s.
    public func run(_ notice: @escaping @Sendable () -> Void) async {
        var delay = 1.0
        while !Task.isCancelled {
            do {
                let connection: PostgresConnection
                do {
                    connection = try await PostgresConnection.connect(
                        configuration: try address.connectionConfiguration(), id: 2, logger: logger)
                } catch {
                    throw StoreError(connectingFailed: error)
                }
                do {
                    try await connection.listen(on: Self.channel) { notifications in
                        delay = 1
                        notice()
                        for try await _ in notifications { notice() }
                    }
                } catch {
                    try? await connection.close()
                    throw StoreError(listeningFailed: error)
                }
                try? await connection.close()
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "Lost the store's outbox notices from the other nodes; connecting again (rows are still read at the health interval).",
                    metadata: [StoreLog.error: "\(Self.reason(error))", StoreLog.retrySeconds: "\(Int(delay))"])
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, Self.longestRetry)
        }
    }
}

extension GatewayStore {
    /// The outbox's wake-ups between nodes on this store: nil on SQLite, whose single node is
    /// woken through its status socket.
    public func outboxNotices(logger: Logger) -> OutboxNotices? {
        switch backend {
        case .sqlite: nil
        case .postgresql(_, let address): OutboxNotices(address: address, logger: logger)
        }
    }
}

extension StoreTransaction {
    /// Tells the other nodes to look at the outbox once this transaction commits (PostgreSQL only).
    func notifyOutbox() throws {
        guard db.dialect == .postgresql else { return }
        try db.execute(sql: "NOTIFY \(OutboxNotices.channel)")
    }
}
