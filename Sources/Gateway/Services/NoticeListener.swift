public import Logging
public import ServiceLifecycle
public import Store

/// Hears the other nodes' commits on PostgreSQL (LISTEN/NOTIFY, ``Store/StoreNotices``): wakes
/// this node's ``OutboxSender`` when another node queued an outbox row, or queued a dead node's
/// claims again, and rings the store's commits (``Store/CommitSignal``) on any other node's
/// commit, which wakes this node's event streams and webhook dispatcher and renews its API tokens.
///
/// Without it a row queued through another node's host would wait for this node's fallback read
/// at the health interval, and another node's message for the streams' fallback read; those reads
/// stay, for a notice lost while the listener reconnects. The gateway runs one only on a store
/// that has notices (PostgreSQL).
public struct NoticeListener: Service {
    let notices: StoreNotices
    let outboxWake: OutboxWake

    public init(notices: StoreNotices, outboxWake: OutboxWake) {
        self.notices = notices
        self.outboxWake = outboxWake
    }

    public func run() async throws {
        let wake = outboxWake
        await cancelWhenGracefulShutdown {
            await notices.run { wake.wake() }
        }
    }
}
