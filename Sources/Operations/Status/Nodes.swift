public import Foundation
public import Store

/// The nodes of a store as an operator tends them: `smsgw node forget`.
public enum Nodes {
    /// Forgets the node `name`, which stopped or is down for good (a machine retired, a node
    /// renamed): its row and its modems' status rows go, so the status no longer lists them.
    /// Audited as `node-forgotten` by `actor`, in the same transaction. A node that starts again
    /// under the name is recorded afresh.
    ///
    /// - Returns: The node's row as it was.
    /// - Throws: ``Store/StoreError/notFound(_:)`` for a name no node ran under;
    ///   ``MaintenanceError/nodeUp(name:heartbeatAt:leaseEndsAt:)`` while its heartbeat is within
    ///   its lease (its daemon may be running: it would record itself again at its next heartbeat).
    @discardableResult
    public static func forget(_ name: String, by actor: AuditActor = .commandLine, store: UnlockedStore, now: Date) throws -> NodeRecord {
        try store.write { tx in
            let node = try forgettable(name, in: tx, now: now)
            _ = try tx.forgetNode(named: node.name)
            try Audit.record(.nodeForgotten, by: actor, target: "node \(node.name)", address: nil, in: tx, now: now)
            return node
        }
    }

    /// The node `name` if ``forget(_:by:store:now:)`` would forget it now: for a front end
    /// that asks for a confirmation first.
    ///
    /// - Throws: As ``forget(_:by:store:now:)``.
    public static func forgettable(_ name: String, store: UnlockedStore, now: Date) throws -> NodeRecord {
        try store.read { reader in try forgettable(name, in: reader, now: now) }
    }

    private static func forgettable(_ name: String, in reader: StoreReader, now: Date) throws -> NodeRecord {
        guard let node = try reader.nodes().first(where: { $0.name == name }) else { throw StoreError.notFound(.node(named: name)) }
        guard node.liveness(at: now) != .up else {
            throw MaintenanceError.nodeUp(name: node.name, heartbeatAt: node.heartbeatAt, leaseEndsAt: node.leaseEndsAt)
        }
        return node
    }
}
