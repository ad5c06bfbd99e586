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
    /// The automatic backups' state; nil when they are off.
    var backups: BackupLedger? = nil

    /// The status now, from one read snapshot of the store.
    public func read(now: Date) throws -> GatewayStatus {
        live(try GatewayStatus.read(from: store, now: now, ended: endedRuns), now: now)
    }

    /// The status with only what the console's banners say, from one small read snapshot
    /// (``Operations/GatewayStatus/readForBanners(from:now:ended:)``).
    public func readForBanners(now: Date) throws -> GatewayStatus {
        live(try GatewayStatus.readForBanners(from: store, now: now, ended: endedRuns), now: now)
    }

    /// This daemon holds the lock at its place: another run recorded there has ended.
    private var endedRuns: GatewayStatus.EndedRuns? {
        node.place.map { GatewayStatus.EndedRuns(place: $0, holder: node.instance) }
    }

    /// `status` as read from the store at `now`, with what only the daemon knows.
    private func live(_ status: GatewayStatus, now: Date) -> GatewayStatus {
        var status = status
        // This node's modems as they are now; another node's as it last recorded them.
        let live = links.map(\.record)
        let local = Set(live.map(\.name))
        status.modems = live + status.modems.filter { !local.contains($0.name) }
        status.daemon = daemon
        status.storeRefusal = storeWrites.refusal
        status.inboxFault = storeWrites.inboxFault
        status.backup = GatewayStatus.Backups(backups?.status(now: now))
        return status
    }
}
