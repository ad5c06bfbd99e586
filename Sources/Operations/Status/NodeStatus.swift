public import Foundation
public import Store

extension GatewayStatus {
    /// One node of the store (an `smsgw serve` by its `[node] name`) as the status shows it.
    public struct NodeStatus: Sendable, Equatable, Codable {
        /// The node's name.
        public var name: String
        /// `up` while its last heartbeat is within its lease, `down` after, `stopped` once it
        /// stopped cleanly. The other nodes send a down or stopped node's pinned contacts.
        public var state: NodeRecord.Liveness
        /// The smsgw version it runs (empty when it did not say).
        public var version: String
        /// When it last started.
        public var startedAt: Date
        /// Its last heartbeat.
        public var heartbeatAt: Date
        /// How often it records one.
        public var healthSeconds: Double
        /// How long after its last heartbeat it counts as up.
        public var leaseSeconds: Double
        /// The names of the modems it drives, as their status rows say.
        public var modems: [String]

        public init(_ record: NodeRecord, modems: [String], now: Date) {
            name = record.name
            state = record.liveness(at: now)
            version = record.version
            startedAt = record.startedAt
            heartbeatAt = record.heartbeatAt
            healthSeconds = record.healthSeconds
            leaseSeconds = record.leaseSeconds
            self.modems = modems
        }
    }

    /// Every node the store knows at `now`, each with the modems whose status rows name it.
    static func nodes(in reader: StoreReader, modems: [ModemStatusRecord], now: Date) throws -> [NodeStatus] {
        try reader.nodes().map { record in
            NodeStatus(record, modems: modems.filter { $0.node == record.name }.map(\.name), now: now)
        }
    }
}
