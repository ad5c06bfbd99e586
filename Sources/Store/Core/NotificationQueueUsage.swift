public import Foundation

/// How full the PostgreSQL server's notification queue is (`pg_notification_queue_usage()`),
/// which every write transaction's notice goes through (``StoreNotices``).
///
/// The queue (8 GB) is emptied only as far as its slowest listening session has read. A session
/// that listens and stops reading (a node stopped with `SIGSTOP` or hung with its connection
/// open, or a listening session left inside a transaction) holds it; once it is full, every
/// write transaction on every node fails at its commit. Healthy, it stays at 0 or a few pages
/// (under 0.001 %).
///
/// Encoded as its bare fraction, a JSON number or `null`.
public struct NotificationQueueUsage: Sendable, Equatable, Codable {
    /// The fraction above which status, the console and `serve --check` warn: 0.5 %, about 40 MB
    /// of notices (some 600,000 unread commits). Far above a healthy queue's few pages, so it
    /// never warns for nothing, and far below full: a queue that took hours to reach it takes
    /// some two hundred times as long to fill, time enough to find the session and end it.
    /// PostgreSQL itself logs a warning only at 50 %.
    public static let warningFraction = 0.005

    /// The fraction of the queue in use, 0 to 1; nil on SQLite, which has no queue.
    public var fraction: Double?

    public init(_ fraction: Double?) {
        self.fraction = fraction
    }

    /// What to do about a queue above ``warningFraction``, or nil when it is below or there is none.
    public var warning: String? {
        guard let fraction, fraction > Self.warningFraction else { return nil }
        return
            "The PostgreSQL server's notification queue is \(String(format: "%.1f", fraction * 100)) % full: a session listening for the nodes' commits does not read them (a node stopped or hung with its connection open); when the queue is full every write on every node fails. Find it in pg_stat_activity (query LISTEN …, idle for long, or idle in transaction) and restart or stop that node, or end the session with pg_terminate_backend."
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        fraction = container.decodeNil() ? nil : try container.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fraction)
    }
}

extension KeyedDecodingContainer {
    /// A missing usage (from an smsgw that did not report it) decodes as none, as `null` does.
    public func decode(_ type: NotificationQueueUsage.Type, forKey key: Key) throws -> NotificationQueueUsage {
        try decodeIfPresent(type, forKey: key) ?? NotificationQueueUsage(nil)
    }
}

extension StoreReader {
    /// How full the PostgreSQL server's notification queue is; none on SQLite.
    public func notificationQueueUsage() throws -> NotificationQueueUsage {
        switch db.dialect {
        case .sqlite: NotificationQueueUsage(nil)
        case .postgresql: NotificationQueueUsage(try db.value(Double.self, sql: "SELECT pg_notification_queue_usage()"))
        }
    }
}

extension GatewayStore {
    /// How full the PostgreSQL server's notification queue is, without an unlock (``Preflight``);
    /// none on SQLite.
    ///
    /// - Throws: ``StoreError/server(_:cause:)`` when the server cannot be asked.
    public func notificationQueueUsage() throws -> NotificationQueueUsage {
        guard case .postgresql(let pool, _) = backend else { return NotificationQueueUsage(nil) }
        return NotificationQueueUsage(
            try pool.readTransaction { db in try db.value(Double.self, sql: "SELECT pg_notification_queue_usage()") })
    }
}
