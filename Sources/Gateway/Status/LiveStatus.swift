public import Foundation
public import Operations
import Store

/// The running gateway's status, for a front end inside the daemon (the HTTP API): the store's
/// status with its modems' live state (another node's as that node last recorded them) and the
/// daemon's own, as the status socket answers it.
public struct LiveStatus: Sendable {
    let store: UnlockedStore
    let links: [ModemLink]
    /// This daemon as a node: its run and where it holds the data directory's lock.
    let node: GatewayNode
    let storeWrites: StoreWrites
    /// The daemon: running, its PID, start time and modems.
    public let daemon: DaemonState
    /// Arrival → log of each received SMS since the daemon started.
    public let arrivals: ArrivalLatency

    /// The status now, from one read snapshot of the store.
    public func read(now: Date) throws -> GatewayStatus {
        // This daemon holds the lock at its place: another run recorded there has ended.
        let ended = node.place.map { GatewayStatus.EndedRuns(place: $0, holder: node.instance) }
        var status = try GatewayStatus.read(from: store, now: now, ended: ended)
        // This node's modems as they are now; another node's as it last recorded them.
        let live = links.map(\.record)
        let local = Set(live.map(\.name))
        status.modems = live + status.modems.filter { !local.contains($0.name) }
        status.daemon = daemon
        status.storeRefusal = storeWrites.refusal
        return status
    }
}
