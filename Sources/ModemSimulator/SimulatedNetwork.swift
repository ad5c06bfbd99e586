public import Foundation
public import Logging
import SplitMix
import Synchronization

/// A virtual GSM network: simulated AT modems on pseudo-terminals, an SMSC that routes SMS
/// between them with store and forward, status reports and fault injection, a traffic log and a
/// control socket.
///
/// Sendable, checked by the compiler: mutable state lives in the `state` mutex, routing runs
/// on one serial dispatch queue, and everything else is immutable after `init`. No lock is held
/// while calling into a modem, and modems call back without holding theirs.
public final class SimulatedNetwork: Sendable {
    /// The SMSC address every modem reports with AT+CSCA?.
    public static let serviceCentreNumber = "+15550000"

    /// Holds the symlinks, gammurc files, control socket and traffic log.
    public let directory: URL
    /// Whether ``stop()`` removes ``directory``: one made for this network alone, which nothing
    /// uses once its terminals are gone.
    let removesDirectory: Bool
    let logger: Logger
    let traffic: TrafficLog
    /// SMSC routing, delays and store and forward, serialised.
    let routingQueue = DispatchQueue(label: "smsgw.sim.smsc")
    let state: Mutex<NetworkState>
    private var control: ControlServer? {
        get { controlServer.withLock { $0 } }
        set { controlServer.withLock { $0 = newValue } }
    }
    private let controlServer = Mutex<ControlServer?>(nil)

    struct NetworkState {
        var modems: [SimulatedModem] = []
        var faults = FaultPlan()
        var random: SplitMix64
        var started = false
        var stopped = false
        /// SMS waiting at the SMSC per destination number: delivered in order when space frees.
        var pending: [String: [PendingDelivery]] = [:]
        var concatenationReference: UInt16 = 0
    }

    /// An SMS the SMSC holds because its recipient could not take it.
    struct PendingDelivery {
        var pdu: [UInt8]
        var tpduLength: Int
        var isStatusReport: Bool
        var from: String
        /// For a status report when the SMS is finally stored.
        var report: ReportRequest?
    }

    /// Who asked for a status report on an SMS, and about what.
    struct ReportRequest {
        var sender: SimulatedModem
        var reference: UInt8
        var recipient: PhoneAddress
        var submitted: SMSTimestamp
    }

    /// Creates an empty network; add modems, then ``start()``.
    /// - Parameters:
    ///   - directory: Created if missing.
    ///   - seed: Makes fault decisions repeatable; random when `nil`.
    ///   - faults: The global fault plan to start with (see ``faults``).
    ///   - removesDirectory: Whether ``stop()`` removes the directory with what is in it (a
    ///     temporary one made for this network).
    public init(
        directory: URL, seed: UInt64? = nil, faults: FaultPlan = FaultPlan(),
        logger: Logger = Logger(label: "smsgw.sim"), removesDirectory: Bool = false
    ) {
        self.directory = directory
        self.removesDirectory = removesDirectory
        self.logger = logger
        // ``start()`` refuses a directory that is not private; this only prepares it for the log.
        try? PrivateDirectory.prepare(directory)
        self.traffic = TrafficLog(path: directory.appendingPathComponent("traffic.log").path)
        self.state = Mutex(
            NetworkState(
                faults: faults, random: SplitMix64(seed: seed ?? UInt64.random(in: 0...UInt64.max))))
    }

    deinit {
        stop()
    }

    /// Adds a modem; if the network runs already, its pseudo-terminal opens at once.
    /// - Parameters:
    ///   - number: Its SIM's number, `+E164` preferred.
    ///   - pin: When set, the SIM asks for this PIN after every power-on; three wrong tries lock it.
    ///   - storageCapacity: SMS each of its memories (SM, ME) holds.
    ///   - notifications: Whether it sends +CMTI/+CDSI (and accepts AT+CNMI); `false` forces polling.
    ///   - faults: This modem's own fault plan (see ``SimulatedModem/faults``).
    @discardableResult
    public func addModem(
        number: String, pin: String? = nil, storageCapacity: Int = 30, notifications: Bool = true,
        faults: FaultPlan = FaultPlan()
    ) throws -> SimulatedModem {
        let key = Self.normalise(number)
        let (modem, started) = try state.withLock { s -> (SimulatedModem, Bool) in
            guard !s.modems.contains(where: { Self.normalise($0.number) == key }) else {
                throw SimulatorError("A modem with number \(number) exists already; use another number.", category: .conflict)
            }
            let modem = SimulatedModem(
                number: number, index: s.modems.count + 1, pin: pin, storageCapacity: max(1, storageCapacity),
                notifications: notifications, directory: directory, network: self, logger: logger)
            modem.faults = faults
            s.modems.append(modem)
            return (modem, s.started && !s.stopped)
        }
        if started { try modem.plug(reset: false) }
        return modem
    }

    /// All modems in the order they were added.
    public var modems: [SimulatedModem] { state.withLock { $0.modems } }

    /// The modem with this number, in any of its written forms (`+1555…`, `001555…`, `1555…`).
    public func modem(number: String) -> SimulatedModem? {
        let key = Self.normalise(number)
        return state.withLock { s in s.modems.first { Self.normalise($0.number) == key } }
    }

    /// The global fault plan, applied on top of each modem's own.
    public var faults: FaultPlan {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// Opens every modem's pseudo-terminal, starts the SMSC and the control socket.
    /// - Throws: ``SimulatorError`` when the directory belongs to another user or a terminal or
    ///   the socket cannot be set up.
    public func start() throws {
        try PrivateDirectory.prepare(directory)
        try PrivateDirectory.restrict(traffic.path)
        let modems = try state.withLock { s -> [SimulatedModem] in
            guard !s.stopped else { throw SimulatorError("The network was stopped; create a new one.") }
            guard !s.started else { return [] }
            s.started = true
            return s.modems
        }
        for modem in modems { try modem.plug(reset: false) }
        let server = try ControlServer(path: controlSocketPath, network: self, logger: logger)
        server.start()
        control = server
        logger.info(
            "simulated network started",
            metadata: [
                SimulatorLog.directory: "\(directory.path)", SimulatorLog.modems: "\(modems.count)",
            ])
    }

    /// Closes every pseudo-terminal, the control socket and the traffic log. Idempotent.
    public func stop() {
        let modems = state.withLock { s -> [SimulatedModem] in
            guard !s.stopped else { return [] }
            s.stopped = true
            return s.modems
        }
        guard !modems.isEmpty || control != nil else { return }
        control?.stop()
        control = nil
        for modem in modems { modem.shutdown() }
        if removesDirectory { try? FileManager.default.removeItem(at: directory) }
        logger.info("simulated network stopped")
    }

    /// The Unix domain socket that accepts one-line control commands (see ``ControlServer``).
    public var controlSocketPath: String { Self.controlSocketPath(in: directory) }

    /// One JSON line per PDU that entered or left the network.
    public var trafficLogPath: String { traffic.path }

    /// Writes `gammurc-<index>` for the modem: `device` is its stable symlink, `connection = at`.
    @discardableResult
    public func writeGammurc(for modem: SimulatedModem) throws -> URL {
        let url = gammurc(for: modem)
        let text = """
            ; gammu configuration for simulated modem \(modem.number), written by smsgw sim
            [gammu]
            device = \(modem.devicePath)
            connection = at
            use_locking = no

            """
        try text.write(to: url, atomically: true, encoding: .utf8)
        try PrivateDirectory.restrict(url.path)
        return url
    }

    /// The digits that identify a number whichever way it is written: `+15550001`, `0015550001`
    /// and `15550001` are one number; alphanumeric names compare case-insensitively.
    public static func normalise(_ number: String) -> String {
        let trimmed = number.trimmingSpaces
        if trimmed.contains(where: { $0.isLetter }) { return trimmed.lowercased() }
        var digits = String(trimmed.filter { $0.isNumber })
        if trimmed.hasPrefix("00") { digits = String(digits.dropFirst(2)) }
        return digits
    }
}
