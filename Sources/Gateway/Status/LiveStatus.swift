public import Foundation
public import Operations
import Store

/// The running gateway's status, for a front end inside the daemon (the HTTP API): the store's
/// status with its modems' live state (another node's as that node last recorded them) and the
/// daemon's own, as the status socket answers it.
public struct LiveStatus: Sendable {
    let store: UnlockedStore
    let links: [ModemLink]
    /// The daemon: running, its PID, start time and modems.
    public let daemon: DaemonState
    /// Arrival → log of each received SMS since the daemon started.
    public let arrivals: ArrivalLatency

    /// The status now, from one read snapshot of the store.
    public func read(now: Date) throws -> GatewayStatus {
        var status = try GatewayStatus.read(from: store, now: now)
        // This node's modems as they are now; another node's as it last recorded them.
        let live = links.map(\.record)
        let local = Set(live.map(\.name))
        status.modems = live + status.modems.filter { !local.contains($0.name) }
        status.daemon = daemon
        return status
    }
}
