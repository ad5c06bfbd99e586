public import Foundation
public import Store

extension GatewayStatus {
    /// One node of the store (an `smsgw serve` by its `[node] name`) as the status shows it.
    public struct NodeStatus: Sendable, Equatable, Codable {
        /// The node's name.
        public var name: String
        /// `up` while its last heartbeat is within its lease, `down` after, `stopped` once it
        /// stopped cleanly: how the other nodes judge it. They send a down or stopped node's
        /// claims and pinned contacts.
        public var state: NodeRecord.Liveness
        /// Whether its daemon is known to have ended without stopping cleanly (killed, crashed):
        /// it ran on this host's data directory, whose lock it no longer holds, yet its row is not
        /// stopped. ``state`` still says what its lease says, as the other nodes see it.
        public var stoppedUncleanly: Bool
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
        /// When its lease ends or ended: its last heartbeat plus its lease.
        public var leaseEndsAt: Date
        /// The names of the modems it drives, as their status rows say.
        public var modems: [String]

        public init(_ record: NodeRecord, modems: [String], now: Date, stoppedUncleanly: Bool = false) {
            name = record.name
            state = record.liveness(at: now)
            self.stoppedUncleanly = stoppedUncleanly && record.stoppedAt == nil
            version = record.version
            startedAt = record.startedAt
            heartbeatAt = record.heartbeatAt
            healthSeconds = record.healthSeconds
            leaseSeconds = record.leaseSeconds
            leaseEndsAt = record.leaseEndsAt
            self.modems = modems
        }

        enum CodingKeys: String, CodingKey {
            case name, state, stoppedUncleanly, version, startedAt, heartbeatAt, healthSeconds, leaseSeconds, leaseEndsAt, modems
        }

        // By hand so that a daemon of an earlier version, which says neither `stoppedUncleanly`
        // nor `leaseEndsAt`, still answers `status`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            state = try container.decode(NodeRecord.Liveness.self, forKey: .state)
            stoppedUncleanly = try container.decodeIfPresent(Bool.self, forKey: .stoppedUncleanly) ?? false
            version = try container.decode(String.self, forKey: .version)
            startedAt = try container.decode(Date.self, forKey: .startedAt)
            heartbeatAt = try container.decode(Date.self, forKey: .heartbeatAt)
            healthSeconds = try container.decode(Double.self, forKey: .healthSeconds)
            leaseSeconds = try container.decode(Double.self, forKey: .leaseSeconds)
            leaseEndsAt =
                try container.decodeIfPresent(Date.self, forKey: .leaseEndsAt) ?? heartbeatAt.addingTimeInterval(leaseSeconds)
            modems = try container.decode([String].self, forKey: .modems)
        }
    }

    /// Which node rows a daemon that has ended left behind: those recorded at `place` (where a
    /// daemon holds this data directory's lock) by a run other than `holder`, the run that holds
    /// the lock now (nil: none does).
    public struct EndedRuns: Sendable, Equatable {
        public var place: String
        public var holder: String?

        public init(place: String, holder: String?) {
            self.place = place
            self.holder = holder
        }

        func contain(_ record: NodeRecord) -> Bool {
            record.instance != holder && record.place.map { Daemon.samePlace($0, place) } == true
        }
    }

    /// Every node the store knows at `now`, each with the modems whose status rows name it, and
    /// those of `ended` marked as stopped without a clean shutdown.
    static func nodes(in reader: StoreReader, modems: [ModemStatusRecord], now: Date, ended: EndedRuns?) throws -> [NodeStatus] {
        try reader.nodes().map { record in
            NodeStatus(
                record, modems: modems.filter { $0.node == record.name }.map(\.name), now: now,
                stoppedUncleanly: ended?.contain(record) ?? false)
        }
    }
}
