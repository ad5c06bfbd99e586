import Foundation
import Logging
import Operations

/// What every service of one gateway shares: the store, the timing, the modems and the logger.
struct GatewayContext: Sendable {
    let store: StoreRunner
    let intervals: GatewayConfiguration.Intervals
    /// Who completes a peer's resync, and the budget of automatic replies.
    let resync: ResyncSettings
    let links: [ModemLink]
    let logger: Logger

    /// Consecutive verification failures after which a contact is flagged for `smsgw resync`.
    static let failureThreshold = SyncPolicy.failureThreshold

    /// Sleeps for `seconds`, returning early (without throwing) when the task is cancelled.
    static func pause(_ seconds: Double) async {
        try? await Task.sleep(for: .milliseconds(Int64(max(seconds, 0) * 1000)))
    }
}
