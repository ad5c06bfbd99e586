import Foundation
import Store
import Synchronization

/// This daemon as one node among those sharing its store: when it last recorded its heartbeat,
/// and how it last saw the other nodes (to log each failover once).
///
/// The heartbeat has no timer of its own: the modems' supervisors, which wake every
/// `health_seconds` anyway, ask ``GatewayContext/heartbeatIfDue()`` on each step, and the first
/// to ask once an interval has passed records it.
final class NodePresence: Sendable {
    /// The node: name, version, health interval and lease.
    let node: GatewayNode
    /// Rung once this node must stop: another run of a daemon with this name took its row over,
    /// or its store was moved.
    let takeover = WakeSignal()
    private let state = Mutex(State())

    private struct State {
        var lastBeat: ContinuousClock.Instant?
        /// The other nodes as the last heartbeat saw them.
        var seen: [String: NodeRecord.Liveness] = [:]
        var takenOver = false
        /// The store's refusal once a heartbeat found it moved.
        var moved: StoreError?
        var pinsChecked = false
    }

    init(_ node: GatewayNode) {
        self.node = node
    }

    /// Takes the heartbeat that is due at `instant`, if one is: true once per health interval
    /// (a little early rather than late, so two supervisors' steps never skip an interval).
    func takeBeat(at instant: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            let interval = Duration.milliseconds(Int64(node.healthSeconds * 900))
            if let last = state.lastBeat, instant - last < interval { return false }
            state.lastBeat = instant
            return true
        }
    }

    /// True once, at the first heartbeat after the start's: the time to look for contacts pinned
    /// to a modem no node has, now that nodes started beside this one had a health period to
    /// record their modems.
    func takePinCheck() -> Bool {
        state.withLock { state in
            defer { state.pinsChecked = true }
            return !state.pinsChecked
        }
    }

    /// Whether another run of a daemon with this name took the node's row over: this one stops.
    var isTakenOver: Bool { state.withLock { $0.takenOver } }

    /// Records that another run took the node's row over and rings ``takeover``; true the first
    /// time only, so the daemon logs it once.
    func markTakenOver() -> Bool {
        let first = state.withLock { state in
            defer { state.takenOver = true }
            return !state.takenOver
        }
        if first { takeover.ring() }
        return first
    }

    /// The store's refusal once a heartbeat found that a copy moved it: this node stops.
    var movedRefusal: StoreError? { state.withLock { $0.moved } }

    /// Records that the store was moved (`refusal` says where) and rings ``takeover``; true the
    /// first time only, so the daemon logs it once.
    func markMoved(_ refusal: StoreError) -> Bool {
        let first = state.withLock { state in
            defer { state.moved = state.moved ?? refusal }
            return state.moved == nil
        }
        if first { takeover.ring() }
        return first
    }

    /// What changed for the other nodes since the last heartbeat: those that went down or
    /// stopped (their pinned contacts fail over), and those back up (their contacts return).
    func changes(in nodes: [NodeRecord], now: Date) -> (gone: [NodeRecord], back: [NodeRecord]) {
        state.withLock { state in
            var gone: [NodeRecord] = []
            var back: [NodeRecord] = []
            for record in nodes where record.name != node.name {
                let liveness = record.liveness(at: now)
                let before = state.seen.updateValue(liveness, forKey: record.name)
                switch (before, liveness) {
                case (.up, .down), (.up, .stopped), (nil, .down): gone.append(record)
                case (.down, .up), (.stopped, .up): back.append(record)
                default: break
                }
            }
            return (gone, back)
        }
    }
}
