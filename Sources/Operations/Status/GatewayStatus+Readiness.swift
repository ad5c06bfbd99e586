import Store

extension GatewayStatus {
    /// Whether the gateway can do its work now, as a health check asks it.
    public enum Readiness: Sendable, Equatable {
        /// The store takes writes and these modems are ready.
        case ready(modems: [String])
        /// Not ready: why, in a sentence that names no front end.
        case notReady(String)
    }

    /// Ready while the store takes the received SMS and a modem is ready. A modem that was ready
    /// and went away is said to have gone (and when), not to be "not ready yet". Another node's
    /// modem counts only while that node is up: a dead node's last record says nothing now (the
    /// running daemon's own modems, ``DaemonState/modems``, are live whatever its row says).
    public var readiness: Readiness {
        if let storeRefusal { return .notReady(storeRefusal.sentence) }
        let gone = Set(nodes.filter { $0.state != .up || $0.stoppedUncleanly }.map(\.name))
        let own = Set(daemon?.modems ?? [])
        let stale = { (modem: ModemStatusRecord) in !own.contains(modem.name) && gone.contains(modem.node ?? "") }
        let ready = modems.filter { $0.state == .ready && !stale($0) }.map(\.name)
        if !ready.isEmpty { return .ready(modems: ready) }
        let states = modems.map { modem in
            if stale(modem) { return "\(modem.name): its node \(modem.node ?? "") is not up" }
            guard let left = modem.leftReadyAt else { return "\(modem.name): \(modem.state)" }
            return "\(modem.name) went away at \(OperationsJSON.timestamp(left)) (now \(modem.state))"
        }
        guard modems.contains(where: { $0.leftReadyAt != nil }) else {
            return .notReady("No modem is ready yet (\(states.joined(separator: ", "))); wait, or see the status and the daemon's log.")
        }
        return .notReady(
            "No modem is ready: \(states.joined(separator: "; ")). Nothing is sent or received until one is back; see the status and the daemon's log."
        )
    }
}
