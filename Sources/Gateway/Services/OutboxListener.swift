public import Logging
public import ServiceLifecycle
public import Store

/// Wakes this node's ``OutboxSender`` when another node queued an outbox row, or queued a dead
/// node's claims again (PostgreSQL's LISTEN/NOTIFY, ``Store/OutboxNotices``).
///
/// Without it a row queued through another node's host would wait for this node's fallback read
/// at the health interval; that read stays, for a notice lost while the listener reconnects.
/// The gateway runs one only on a store that has notices (PostgreSQL).
public struct OutboxListener: Service {
    let notices: OutboxNotices
    let outboxWake: OutboxWake

    public init(notices: OutboxNotices, outboxWake: OutboxWake) {
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
