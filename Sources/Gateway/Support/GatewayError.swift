public import Failures
public import SystemCalls

/// An error of the gateway's own (not the store's, the modem's or the configuration's): a
/// sentence saying what to do that names no front end's command, and a ``category``.
public enum GatewayError: CategorizedError, Sendable, Equatable {
    /// The configuration has no modem, so there is nothing to serve.
    case noModem
    /// A configured modem could not be set up (its driver refused the configuration).
    case modemSetup(modem: String, reason: String)
    /// The status socket's path is longer than a Unix socket address holds.
    case statusSocketPathTooLong(String)
    /// The status socket could not be made.
    case statusSocket(path: String, SystemCallError)
    /// A configured modem has the name of a modem another node that is up drives.
    case modemOfAnotherNode(modem: String, node: String)
    /// Another daemon with this node's name runs on the store: its heartbeat is within its lease.
    case nodeNameTaken(node: String, leaseSeconds: Double)
    /// Another daemon with this node's name took the node's row over while this one ran.
    case nodeTakenOver(node: String)
    /// The daemon's stop gave up on a store call that did not answer within its grace.
    case storeStopped(graceSeconds: Double)

    public var category: ErrorCategory {
        switch self {
        case .nodeNameTaken, .nodeTakenOver: .conflict
        default: .unavailable
        }
    }

    public var description: String {
        switch self {
        case .noModem:
            "No modem is configured; add a [[modem]] table to the configuration (see config/smsgw.toml.example), or run the gateway on a simulated network."
        case .modemSetup(let modem, let reason):
            "The modem \(modem) cannot be set up: \(reason)"
        case .statusSocketPathTooLong(let path):
            "The status socket path \(path) is too long for a Unix socket; use a shorter data directory."
        case .statusSocket(let path, let error):
            "Cannot make the status socket \(path) (\(error.call): \(error.reason)); check the data directory's owner and permissions."
        case .modemOfAnotherNode(let modem, let node):
            "The node \(node), which is up, drives a modem named \(modem) too; give each modem a name unique across the nodes."
        case .nodeNameTaken(let node, let lease):
            "Another daemon runs as the node \(node) on this store (its last heartbeat is within its lease); give each node its own [node] name, or if that daemon died, start this one once its lease has ended (\(Int(lease.rounded(.up))) s after its last heartbeat)."
        case .nodeTakenOver(let node):
            "Another daemon took over the node \(node) on this store, so this one stopped; give each node its own [node] name."
        case .storeStopped(let grace):
            "The daemon stopped without waiting for the store, which did not answer within the stop's \(Int(grace)) s grace; what the call would have changed stays as it was."
        }
    }
}
