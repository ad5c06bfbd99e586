import Foundation
import Logging
import Store

extension GatewayContext {
    /// Stops this node because a copy moved its store (`refusal` says where): found at a
    /// heartbeat, or by a write of a key state the store refused. Logged once.
    static func stop(moved refusal: StoreError, presence: NodePresence, logger: Logger) {
        if presence.markMoved(refusal) {
            logger.error(
                "The store was moved, so this node stops sending and the daemon exits: \(refusal)",
                metadata: [GatewayLog.node: "\(presence.node.name)"])
        }
    }

    /// Records this node's heartbeat if one is due (see ``NodePresence``): cheap when none is.
    func heartbeatIfDue() async {
        guard presence.takeBeat(at: .now) else { return }
        await heartbeat(now: Date())
    }

    /// Records this node's heartbeat at `now`: renews the leases of its claims, queues again the
    /// claims of nodes whose lease ended, and logs once each node that went down (its pinned
    /// contacts are sent by the other nodes' modems) or came back (they return to its modems).
    @discardableResult
    func heartbeat(now: Date) async -> NodeHeartbeat? {
        let node = presence.node
        let beat: NodeHeartbeat
        do {
            // A store moved elsewhere (a migration run on another machine) has a newer copy whose
            // keys this node would step again: it stops sending.
            if let refusal = try await store.movedRefusal() {
                Self.stop(moved: refusal, presence: presence, logger: logger)
                return nil
            }
            beat = try await store.write { try $0.recordHeartbeat(node, now: now) }
        } catch {
            logger.warning("Could not record this node's heartbeat; retrying at the next.", metadata: [GatewayLog.error: "\(error)"])
            return nil
        }
        storeWrote()
        if beat.takenOver != nil {
            if presence.markTakenOver() {
                logger.error(
                    "Another daemon with this node's name took the node over on the store (two daemons share the name, or this one's heartbeats stopped for longer than its lease); stopping.",
                    metadata: [GatewayLog.node: "\(node.name)"])
            }
            return beat
        }
        let (gone, back) = presence.changes(in: beat.nodes, now: now)
        for record in gone {
            let metadata: Logger.Metadata = [GatewayLog.node: "\(record.name)"]
            if record.liveness(at: now) == .stopped {
                logger.notice("Node stopped; contacts pinned to its modems are sent by the other nodes' modems.", metadata: metadata)
            } else {
                logger.warning(
                    "Node down (no heartbeat within its lease); contacts pinned to its modems are sent by the other nodes' modems.",
                    metadata: metadata)
            }
        }
        for record in back {
            logger.notice("Node back; contacts pinned to its modems return to them.", metadata: [GatewayLog.node: "\(record.name)"])
        }
        if beat.requeued > 0 {
            logger.notice(
                "Requeued SMS whose node's lease ended; sending them with the same text.", metadata: [GatewayLog.count: "\(beat.requeued)"])
        }
        if beat.requeued > 0 || !gone.isEmpty || !back.isEmpty { outboxWake.wake() }
        if presence.takePinCheck() { await warnOfUnknownPins() }
        return beat
    }

    /// Notes that this node started: the next heartbeat is due one health interval from now. The
    /// node's row was claimed once, when the gateway was made, in the transaction that checks its
    /// modems (``Store/StoreTransaction/claimNode(_:now:)``), not again here.
    func started() {
        _ = presence.takeBeat(at: .now)
    }

    /// Records that this node stopped cleanly; a failure is logged (the node then shows down once its lease ends).
    func recordStop(now: Date) async {
        let node = presence.node
        do {
            try await store.write { try $0.stopNode(named: node.name, instance: node.instance, now: now) }
        } catch {
            logger.warning("Could not record that this node stopped.", metadata: [GatewayLog.error: "\(error)"])
        }
    }
}
