public import Foundation

/// Whether a daemon (`smsgw serve`) runs on the data directory, as its lock tells
/// (``Store/DaemonLock``), and what it said about itself over the ``StatusSocket``.
public struct DaemonState: Sendable, Equatable, Codable {
    /// Whether a daemon holds the data directory's lock.
    public var running: Bool
    /// Its process id, when it runs.
    public var pid: Int32?
    /// When it started serving, when it runs.
    public var startedAt: Date?
    /// The names of the modems it drives (its configuration's `[[modem]]` tables), when it runs.
    public var modems: [String]?

    public init(running: Bool, pid: Int32? = nil, startedAt: Date? = nil, modems: [String]? = nil) {
        self.running = running
        self.pid = pid
        self.startedAt = startedAt
        self.modems = modems
    }

    /// No daemon runs.
    public static let notRunning = DaemonState(running: false)
}
