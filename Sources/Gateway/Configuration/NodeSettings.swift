import Foundation
import Operations
public import Store
import TOMLKit

/// The `[node]` table: this daemon's name among the nodes that share one store.
///
/// Each `smsgw serve` is one node: it drives its own `[[modem]]` tables, claims outbox rows in
/// its name and records a heartbeat every `health_seconds`; once its lease has passed without
/// one (``GatewayConfiguration/gatewayNode``) the others take over its claims and the contacts
/// pinned to its modems.
public struct NodeSettings: Sendable, Equatable {
    /// `name`: unique among the nodes of one store; the host name by default.
    public var name: String
    /// The smsgw version this daemon runs, for the status (set by the program, not a key).
    public var version = ""

    public init(name: String = NodeSettings.hostName) {
        self.name = name
    }

    /// The machine's host name, or `smsgw` when it has none a node could be named by.
    public static var hostName: String {
        (try? validated(Daemon.hostName, key: "node.name")) ?? "smsgw"
    }

    /// Reads the `[node]` table.
    mutating func read(_ table: TOMLTable, source: String) throws(ConfigurationError) {
        let reader = TOMLReader(source: source)
        guard let node = try reader.table(table, "node", keys: ["name"]) else { return }
        if let text = try reader.string(node, "name", path: "node.name") {
            name = try Self.validated(text, key: "node.name")
        }
    }

    /// Applies `SMSGW_NODE_NAME`.
    mutating func applyEnvironment(_ environment: [String: String], prefix: String) throws(ConfigurationError) {
        let key = prefix + "NODE_NAME"
        if let text = environment[key] { name = try Self.validated(text, key: key) }
    }

    /// A node name as the store keeps it: trimmed, 1 to 64 characters, none of them a control
    /// character, as the names of contacts and operators.
    static func validated(_ raw: String, key: String) throws(ConfigurationError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !name.isEmpty, name.count <= 64 else {
            throw ConfigurationError(key: key, "\(key) must be 1 to 64 characters (a name for this node), not \(name.count).")
        }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw ConfigurationError(key: key, "\(key) contains control characters; use printable characters only.")
        }
        return name
    }
}

extension GatewayConfiguration {
    /// This daemon as a node of its store: `[node] name`, a heartbeat every `health_seconds`, and
    /// a lease of three heartbeats, at least twice a heartbeat plus the longest modem call.
    ///
    /// The heartbeat rides the modems' health checks, which wait for a send in progress on the
    /// same modem, so one heartbeat may come as late as a health interval plus two calls; the
    /// lease outlasts that, and a live node's claims are never taken (120 s with the defaults).
    public var gatewayNode: GatewayNode {
        let health = intervals.healthSeconds
        let longestCall = modems.map(\.callTimeoutSeconds).max() ?? 0
        let lease = max(GatewayNode.leaseHeartbeats * health, 2 * (health + longestCall))
        return GatewayNode(name: node.name, version: node.version, healthSeconds: health, leaseSeconds: lease)
    }
}
