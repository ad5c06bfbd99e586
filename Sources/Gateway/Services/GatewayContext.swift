import Foundation
import Logging
import Operations
import Store

/// What every service of one gateway shares: the store, the timing, the modems, the node and the logger.
struct GatewayContext: Sendable {
    let store: StoreRunner
    let intervals: GatewayConfiguration.Intervals
    /// Who completes a peer's resync, and the budget of automatic replies.
    let resync: ResyncSettings
    /// When the sender gives up on an SMS that keeps failing temporarily.
    let outbox: OutboxSettings
    let links: [ModemLink]
    /// This daemon as a node of the store: its name, lease and heartbeat.
    let presence: NodePresence
    /// Rung after anything in the daemon queued an outbox row.
    let outboxWake: OutboxWake
    /// Rung when the next due time of the clock-driven work may have changed (an SMS came or went).
    let timersBell = WakeSignal()
    /// Arrival → log of each received SMS, for the metrics page.
    let arrivals = ArrivalLatency()
    /// Whether the store refuses the daemon's writes and the received SMS, for the status.
    var storeWrites: StoreWrites { store.writes }
    let logger: Logger

    /// Consecutive verification failures after which a contact is flagged for `smsgw resync`.
    static let failureThreshold = SyncPolicy.failureThreshold

    /// The context of one gateway; each link's outbox worker is woken by `outboxWake` from now on.
    /// `node` names the daemon among the store's nodes (tests leave it out: a node named `local`).
    init(
        store: StoreRunner, intervals: GatewayConfiguration.Intervals, resync: ResyncSettings, links: [ModemLink],
        outbox: OutboxSettings = OutboxSettings(), outboxWake: OutboxWake = OutboxWake(), node: GatewayNode? = nil,
        logger: Logger
    ) {
        self.store = store
        self.intervals = intervals
        self.resync = resync
        self.outbox = outbox
        self.links = links
        self.presence = NodePresence(node ?? GatewayNode(name: "local", healthSeconds: intervals.healthSeconds))
        self.outboxWake = outboxWake
        self.logger = logger
        for link in links { outboxWake.register(link.outboxBell) }
        let presence = self.presence
        store.moved.set { refusal in Self.stop(moved: refusal, presence: presence, logger: logger) }
    }

    /// Says that a write changed the store (an SMS recorded as sent, a heartbeat): rings the
    /// inbox receiver of every modem whose last scan left SMS to retry, since what they waited
    /// for (that row's record, a store that takes writes again) may have come.
    func storeWrote() {
        for link in links where link.snapshot.retryPending { link.requestInboxScan() }
    }

    /// Sleeps for `seconds`, returning early (without throwing) when the task is cancelled.
    static func pause(_ seconds: Double) async {
        await WakeSignal.sleep(until: .now + .milliseconds(Int64(max(seconds, 0) * 1000)))
    }
}
